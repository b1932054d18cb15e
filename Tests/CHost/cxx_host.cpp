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

    // ABI version 2's types from C++: a profile-driven engine (run from the repository root),
    // parameters, progress, items with the sticky header, a snapshot applied into a batch,
    // and the changed rows of a swipe.
    tess_profile_t *george = nullptr;
    const char path[] = "Profiles/george.json";
    CHECK(tess_profile_load_path(path, sizeof path - 1, nullptr, 0, &george) == TESS_OK);
    const tess_environment ios = {375, TESS_PLATFORM_IOS, 0, 1};
    const tess_parameters none = {nullptr, 0, nullptr, nullptr, 0};
    CHECK(tess_engine_create_with_profile(george, &ios, &none, 844, 100, nullptr, &engine) == TESS_OK);
    // sectionHeader (13) "Today", then two basicCells (1) whose label is value 2.
    const char utf8[] = "TodayCoffeeSalary";
    std::vector<int64_t> text_offsets(3 * 10 + 1, 0);
    for (size_t i = 4; i <= 10; ++i) text_offsets[i] = 5;      // header: headline = value 3
    for (size_t i = 13; i <= 20; ++i) text_offsets[i] = 11;    // cell 1: label = value 2
    for (size_t i = 11; i <= 12; ++i) text_offsets[i] = 5;
    for (size_t i = 21; i <= 22; ++i) text_offsets[i] = 11;
    for (size_t i = 23; i <= 30; ++i) text_offsets[i] = 17;    // cell 2
    const tess_text_columns text = {utf8, sizeof utf8 - 1, text_offsets.data(), 10};
    const uint64_t pids[] = {1, 2, 3}, versions[] = {1, 1, 1};
    const uint16_t pkinds[] = {13, 1, 1};
    CHECK(tess_engine_append_rows(engine, pids, pkinds, versions, 3, &text, &offset) == TESS_OK);
    tess_measure_progress progress{};
    CHECK(tess_engine_measure(engine, TESS_BUDGET_ROWS, 100, &progress) == TESS_OK);
    CHECK(progress.measured == 3 && progress.remaining == 0);
    std::vector<tess_visible_item> items(8);
    tess_visible_item sticky{};
    int32_t has_sticky = 0;
    CHECK(tess_engine_items(engine, items.data(), 8, &count, &sticky, &has_sticky) == TESS_OK);
    CHECK(count == 3 && has_sticky == 1 && sticky.id == 1 && items[1].y == items[0].height && items[1].width == 375);
    CHECK((items[1].flags & TESS_ROW_DIVIDER) != 0 && (items[2].flags & TESS_ROW_DIVIDER) == 0);
    tess_batch_t *batch = nullptr;
    CHECK(tess_batch_create(&batch) == TESS_OK);
    const uint64_t next_ids[] = {1, 3}, next_versions[] = {1, 1};
    const uint16_t next_kinds[] = {13, 1};
    const uint8_t unread[] = {0, 0};
    const tess_snapshot snapshot = {next_ids, next_kinds, next_versions, 2, nullptr, nullptr, unread};
    CHECK(tess_engine_apply(engine, &snapshot, batch, &offset) == TESS_OK);
    tess_diff_counts counts{};
    CHECK(tess_batch_get_counts(batch, &counts) == TESS_OK && counts.deletes == 1 && counts.new_count == 2);
    int64_t changed = -1;
    CHECK(tess_engine_swipe(engine, 3, TESS_SWIPE_TRAILING, 80, &changed) == TESS_OK && changed == 1);
    tess_row_reference ref{};
    CHECK(tess_engine_changed_rows(engine, &ref, 1, &count) == TESS_OK && ref.id == 3 && ref.row == 1);
    CHECK(tess_engine_swipe(engine, 1, TESS_SWIPE_TRAILING, 80, &changed) == TESS_ERROR_NOT_ALLOWED);
    CHECK(std::strcmp(tess_status_name(TESS_ERROR_STALE_BATCH), "STALE_BATCH") == 0);
    tess_batch_destroy(batch);
    tess_engine_destroy(engine);
    tess_profile_destroy(george);
    std::printf("cxx-host: %s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
