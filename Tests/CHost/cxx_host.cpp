// tessera.h from C++17: the header compiles with -Wall -Wextra -Werror -pedantic, the
// extern "C" guards give C linkage (this links against libtessera.so), and a short session
// gives the answers the C host checks.
#include "tessera.h"

#include <cstdio>
#include <cstring>
#include <vector>

static int failures = 0;
#define CHECK(c)                                                          \
    do {                                                                  \
        if (!(c)) {                                                       \
            ++failures;                                                   \
            std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
        }                                                                 \
    } while (0)

int main() {
    CHECK(tess_abi_version() == TESS_ABI_VERSION);
    const double estimates[] = {56, 72, 44};
    tess_engine_t *engine = nullptr;
    CHECK(tess_engine_create(estimates, 3, 100, &engine) == TESS_OK);
    std::vector<uint64_t> ids(1000);
    std::vector<uint16_t> kinds(1000);
    for (size_t i = 0; i < ids.size(); ++i) {
        ids[i] = i + 1;
        kinds[i] = static_cast<uint16_t>(i % 3);
    }
    double offset = -1;
    CHECK(tess_engine_append(engine, ids.data(), kinds.data(), nullptr, static_cast<int64_t>(ids.size()), nullptr,
                             &offset) == TESS_OK);
    double total = 0;
    CHECK(tess_engine_total_height(engine, &total) == TESS_OK);
    CHECK(total == 334.0 * 56 + 333 * 72 + 333 * 44);  // rows 0, 3, … are kind 0
    std::vector<tess_visible_row> rows(8);
    int64_t count = 0;
    CHECK(tess_engine_window(engine, 0, rows.data(), static_cast<int64_t>(rows.size()), &count) == TESS_OK);
    CHECK(count == 2 && rows[0].id == 1 && rows[1].y == 56);  // [0, 100): 0..56, 56..128
    CHECK(tess_engine_window(engine, 0, nullptr, 0, &count) == TESS_ERROR_BUFFER_TOO_SMALL && count == 2);
    CHECK(std::strstr(tess_last_error(engine), "rows") != nullptr);
    tess_engine_t *bad = nullptr;
    CHECK(tess_engine_create(estimates, -1, 100, &bad) == TESS_ERROR_INVALID_ARGUMENT && bad == nullptr);
    CHECK(std::strstr(tess_last_error(nullptr), "kind_count") != nullptr);
    tess_engine_destroy(engine);
    std::printf("cxx-host: %s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
