/*
 * The C host of Tessera's C ABI: drives every function of tessera.h, checks the answers
 * against values computed independently here (a flat-array model of the list, the
 * hand-computed examples of Profiles/README.md, HarfBuzz's advances, diffs re-applied to
 * the old list), and checks every error path: NULL handles and buffers, zero or too-small
 * capacities, negative counts and indexes, ranges past the end, NaN and infinite values,
 * invalid UTF-8, offsets past the buffer, duplicate ids, unknown kinds, malformed profiles
 * and fonts, a callback returning NaN or a negative width — each must return its status
 * and a message naming the argument, and leave the handle as it was and usable.
 *
 * Usage: host <repo root>            runs the checks, exit status 0 when all pass
 *        host <repo root> --bench N  times the 1M-row append and window queries
 */
#define _POSIX_C_SOURCE 200809L
#include "tessera.h"

/* The error-path checks pass NULL where the header says TESS_NONNULL, on purpose. */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wnonnull"
#endif

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int checks = 0, failures = 0;
static const char *repo = ".";

#define CHECK(cond)                                                                  \
    do {                                                                             \
        checks++;                                                                    \
        if (!(cond)) {                                                               \
            failures++;                                                              \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                            \
    } while (0)

#define OK(call, handle)                                                                               \
    do {                                                                                               \
        tess_status s_ = (call);                                                                       \
        checks++;                                                                                      \
        if (s_ != TESS_OK) {                                                                           \
            failures++;                                                                                \
            fprintf(stderr, "%s:%d: %s -> %s: %s\n", __FILE__, __LINE__, #call, tess_status_name(s_), \
                    tess_last_error(handle));                                                          \
        }                                                                                              \
    } while (0)

/* The call fails with `status` and the handle's message names `needle`. */
#define FAILS(call, handle, status, needle) \
    expect_failure(__FILE__, __LINE__, #call, (call), (handle), (status), (needle))

static void expect_failure(const char *file, int line, const char *text, tess_status got, const void *handle,
                           tess_status want, const char *needle) {
    checks++;
    const char *message = tess_last_error(handle);
    if (got != want) {
        failures++;
        fprintf(stderr, "%s:%d: %s -> %s, expected %s (%s)\n", file, line, text, tess_status_name(got),
                tess_status_name(want), message);
        return;
    }
    if (needle && !strstr(message, needle)) {
        failures++;
        fprintf(stderr, "%s:%d: %s: message \"%s\" does not name \"%s\"\n", file, line, text, message, needle);
    }
}

#define NEAR(a, b) (fabs((a) - (b)) < 1e-9)

static char *read_file(const char *path, int64_t *length) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *bytes = malloc((size_t)n + 1);
    if (fread(bytes, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(bytes);
        return NULL;
    }
    fclose(f);
    *length = n;
    return bytes;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t next_random(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}
static int64_t random_below(int64_t n) { return n <= 0 ? 0 : (int64_t)(next_random() % (uint64_t)n); }

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#define ROBOTO "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf"
#define DEJAVU "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

/* ===================================================================================== */
/* Version and status names                                                               */
/* ===================================================================================== */

static void test_version(void) {
    CHECK(tess_abi_version() == TESS_ABI_VERSION);
    CHECK(strcmp(tess_status_name(TESS_OK), "OK") == 0);
    CHECK(strcmp(tess_status_name(TESS_ERROR_BUFFER_TOO_SMALL), "BUFFER_TOO_SMALL") == 0);
    CHECK(strcmp(tess_status_name(TESS_ERROR_INTERNAL), "INTERNAL") == 0);
    CHECK(strcmp(tess_status_name(-1), "UNKNOWN") == 0);
    CHECK(strcmp(tess_status_name(9999), "UNKNOWN") == 0);
}

/* ===================================================================================== */
/* Engine against a flat-array model                                                      */
/* ===================================================================================== */

typedef struct model {
    int64_t count, capacity;
    uint64_t *ids;
    uint16_t *kinds;
    double *heights;
    uint16_t *flags;
} model;

static const double estimates[3] = {56, 72, 44};

static void model_insert(model *m, int64_t at, const uint64_t *ids, const uint16_t *kinds, const double *heights,
                         int64_t n) {
    if (m->count + n > m->capacity) {
        m->capacity = (m->count + n) * 2;
        m->ids = realloc(m->ids, sizeof(uint64_t) * (size_t)m->capacity);
        m->kinds = realloc(m->kinds, sizeof(uint16_t) * (size_t)m->capacity);
        m->heights = realloc(m->heights, sizeof(double) * (size_t)m->capacity);
        m->flags = realloc(m->flags, sizeof(uint16_t) * (size_t)m->capacity);
    }
    int64_t tail = m->count - at;
    memmove(m->ids + at + n, m->ids + at, sizeof(uint64_t) * (size_t)tail);
    memmove(m->kinds + at + n, m->kinds + at, sizeof(uint16_t) * (size_t)tail);
    memmove(m->heights + at + n, m->heights + at, sizeof(double) * (size_t)tail);
    memmove(m->flags + at + n, m->flags + at, sizeof(uint16_t) * (size_t)tail);
    for (int64_t i = 0; i < n; i++) {
        m->ids[at + i] = ids[i];
        m->kinds[at + i] = kinds[i];
        m->heights[at + i] = heights ? heights[i] : estimates[kinds[i]];
        m->flags[at + i] = heights ? TESS_ROW_MEASURED : 0;
    }
    m->count += n;
}

static void model_remove(model *m, int64_t at, int64_t n) {
    int64_t tail = m->count - at - n;
    memmove(m->ids + at, m->ids + at + n, sizeof(uint64_t) * (size_t)tail);
    memmove(m->kinds + at, m->kinds + at + n, sizeof(uint16_t) * (size_t)tail);
    memmove(m->heights + at, m->heights + at + n, sizeof(double) * (size_t)tail);
    memmove(m->flags + at, m->flags + at + n, sizeof(uint16_t) * (size_t)tail);
    m->count -= n;
}

static double model_top(const model *m, int64_t row) {
    double y = 0;
    for (int64_t i = 0; i < row; i++) y += m->heights[i];
    return y;
}

static double model_total(const model *m) { return model_top(m, m->count); }

/* Rows whose bottom is below `start` and whose top is above `end`. */
static int64_t model_window(const model *m, double start, double end, int64_t *first) {
    double y = 0;
    int64_t n = 0;
    *first = -1;
    for (int64_t i = 0; i < m->count; i++) {
        double h = m->heights[i];
        if (y + h > start && y < end) {
            if (*first < 0) *first = i;
            n++;
        }
        y += h;
    }
    return n;
}

/* The engine's rows equal the model's, one by one. */
static void check_engine_equals_model(tess_engine_t *e, const model *m) {
    int64_t count = -1;
    OK(tess_engine_row_count(e, &count), e);
    CHECK(count == m->count);
    double total = -1;
    OK(tess_engine_total_height(e, &total), e);
    CHECK(NEAR(total, model_total(m)));
    double y = 0;
    for (int64_t i = 0; i < m->count && i < count; i++) {
        tess_row_info info;
        OK(tess_engine_get_row(e, i, &info), e);
        CHECK(info.id == m->ids[i] && info.kind == m->kinds[i] && NEAR(info.height, m->heights[i]) &&
              info.flags == m->flags[i]);
        double top = -1;
        OK(tess_engine_offset_of_row(e, i, &top), e);
        CHECK(NEAR(top, y));
        int64_t row = -1;
        OK(tess_engine_index_of(e, m->ids[i], &row), e);
        CHECK(row == i);
        y += m->heights[i];
    }
}

static void check_window(tess_engine_t *e, const model *m, double offset, double viewport, double before,
                         double after) {
    tess_visible_row rows[512];
    int64_t n = -1;
    OK(tess_engine_window_at(e, offset, viewport, before, after, rows, 512, &n), e);
    double start = offset - before < 0 ? 0 : offset - before, end = offset + viewport + after;
    int64_t first;
    int64_t want = (viewport > 0 || before > 0 || after > 0) ? model_window(m, start, end, &first) : 0;
    CHECK(n == want);
    for (int64_t i = 0; i < n && i < want; i++) {
        int64_t r = first + i;
        CHECK(rows[i].row == r && rows[i].id == m->ids[r] && rows[i].kind == m->kinds[r] &&
              NEAR(rows[i].y, model_top(m, r)) && NEAR(rows[i].height, m->heights[r]) && rows[i].flags == m->flags[r]);
    }
}

static void test_engine_model(void) {
    tess_engine_t *e = NULL;
    OK(tess_engine_create(estimates, 3, 600, &e), NULL);
    CHECK(e != NULL);
    model m = {0};
    uint64_t next_id = 1;
    for (int step = 0; step < 400; step++) {
        int op = (int)random_below(6);
        if (op <= 1 || m.count < 20) { /* insert a batch somewhere */
            int64_t n = 1 + random_below(40), at = random_below(m.count + 1);
            uint64_t ids[40];
            uint16_t kinds[40];
            double heights[40];
            int measured = (int)random_below(2);
            for (int64_t i = 0; i < n; i++) {
                ids[i] = next_id++ * 7919u;
                kinds[i] = (uint16_t)random_below(3);
                heights[i] = (double)(1 + random_below(400)) / 4;
            }
            double y = -1;
            /* The scroll offset is an optional output: without it the rows go in all the same. */
            double *offset = random_below(4) == 0 ? NULL : &y;
            if (at == m.count && random_below(2))
                OK(tess_engine_append(e, ids, kinds, measured ? heights : NULL, n, NULL, offset), e);
            else
                OK(tess_engine_insert(e, at, ids, kinds, measured ? heights : NULL, n, NULL, offset), e);
            model_insert(&m, at, ids, kinds, measured ? heights : NULL, n);
            CHECK(offset == NULL || y >= 0);
        } else if (op == 2) { /* remove a range */
            int64_t at = random_below(m.count), n = 1 + random_below(m.count - at < 30 ? m.count - at : 30);
            OK(tess_engine_remove(e, at, n, NULL), e);
            model_remove(&m, at, n);
        } else if (op == 3) { /* measure a run */
            int64_t at = random_below(m.count), n = 1 + random_below(m.count - at < 20 ? m.count - at : 20);
            double heights[20];
            for (int64_t i = 0; i < n; i++) heights[i] = (double)random_below(800) / 8;
            OK(tess_engine_set_heights(e, at, heights, n, NULL), e);
            for (int64_t i = 0; i < n; i++) {
                m.heights[at + i] = heights[i];
                m.flags[at + i] |= TESS_ROW_MEASURED;
            }
        } else if (op == 4) { /* invalidate, flags */
            int64_t r = random_below(m.count);
            OK(tess_engine_invalidate_height(e, r, NULL), e);
            m.heights[r] = estimates[m.kinds[r]];
            m.flags[r] &= (uint16_t)~TESS_ROW_MEASURED;
            /* Selection and unread only: since ABI version 2 one row at most is swiped open and
             * scrolling it out of the viewport closes it (checked in test_profile_engine). */
            uint16_t set = (uint16_t)(random_below(4) << 1), clear = (uint16_t)((TESS_ROW_SELECTED | TESS_ROW_UNREAD) & ~set);
            OK(tess_engine_update_flags(e, r, set, clear), e);
            m.flags[r] = (uint16_t)((m.flags[r] & ~clear) | set);
        } else { /* windows */
            double total = model_total(&m);
            for (int w = 0; w < 4; w++) {
                double offset = (double)random_below((int64_t)(total * 4) + 40) / 4;
                check_window(e, &m, offset, (double)random_below(4000) / 4, (double)random_below(1000) / 4,
                             (double)random_below(1000) / 4);
            }
        }
        if (step % 50 == 0) check_engine_equals_model(e, &m);
    }
    check_engine_equals_model(e, &m);
    check_window(e, &m, 0, 0, 0, 0);
    check_window(e, &m, model_total(&m) + 100, 600, 0, 0);

    /* row_at_offset and scroll_offset_to_row against the model. */
    double total = model_total(&m), viewport = 600;
    for (int i = 0; i < 50; i++) {
        double y = (double)random_below((int64_t)total * 4) / 4;
        int64_t row = -2;
        double inside = -1;
        OK(tess_engine_row_at_offset(e, y, &row, &inside), e);
        double top = 0;
        int64_t want = 0;
        while (top + m.heights[want] <= y) top += m.heights[want++];
        CHECK(row == want && NEAR(inside, y - top));
        int64_t r = random_below(m.count);
        double t = model_top(&m, r), h = m.heights[r], limit = total - viewport < 0 ? 0 : total - viewport;
        double targets[3] = {t, t + h / 2 - viewport / 2, t + h - viewport};
        for (int p = 0; p < 3; p++) {
            double off = -1, expect = targets[p] < 0 ? 0 : (targets[p] > limit ? limit : targets[p]);
            OK(tess_engine_scroll_offset_to_row(e, r, p, &off), e);
            CHECK(NEAR(off, expect));
        }
    }
    int64_t past = 0;
    double inside = -1;
    OK(tess_engine_row_at_offset(e, total, &past, &inside), e);
    CHECK(past == -1 && inside == 0);

    /* Scroll anchoring: rows inserted above the viewport keep the anchor row still. */
    double clamped = -1, max = -1;
    OK(tess_engine_max_scroll_offset(e, &max), e);
    CHECK(NEAR(max, total - viewport));
    OK(tess_engine_scroll_to(e, 1e12, &clamped), e);
    CHECK(NEAR(clamped, max));
    double target = model_top(&m, m.count / 2) + 3;
    OK(tess_engine_scroll_to(e, target, &clamped), e);
    CHECK(NEAR(clamped, target));
    int32_t has = 0;
    uint64_t anchor = 0;
    double in_row = -1;
    OK(tess_engine_get_anchor(e, &has, &anchor, &in_row), e);
    CHECK(has == 1 && anchor == m.ids[m.count / 2] && NEAR(in_row, 3));
    uint64_t new_ids[2] = {next_id * 7919u, (next_id + 1) * 7919u};
    next_id += 2;
    uint16_t new_kinds[2] = {1, 2};
    double corrected = -1;
    OK(tess_engine_insert(e, 0, new_ids, new_kinds, NULL, 2, NULL, &corrected), e);
    model_insert(&m, 0, new_ids, new_kinds, NULL, 2);
    CHECK(NEAR(corrected, target + 72 + 44));
    double now = -1;
    OK(tess_engine_get_scroll_offset(e, &now), e);
    CHECK(NEAR(now, corrected));
    /* ...and rows removed above it too. */
    OK(tess_engine_remove(e, 0, 2, &corrected), e);
    model_remove(&m, 0, 2);
    CHECK(NEAR(corrected, target));
    /* A height change above the viewport. */
    double h0 = m.heights[0] + 10;
    OK(tess_engine_set_heights(e, 0, &h0, 1, &corrected), e);
    m.heights[0] = h0;
    m.flags[0] |= TESS_ROW_MEASURED;
    CHECK(NEAR(corrected, target + 10));

    /* The window at the engine's own scroll offset and viewport. */
    tess_visible_row rows[256];
    int64_t n = -1, first;
    OK(tess_engine_window(e, 100, rows, 256, &n), e);
    CHECK(n == model_window(&m, corrected - 100, corrected + viewport + 100, &first));
    CHECK(n > 0 && rows[0].row == first);

    /* Viewport changes. */
    double v = -1;
    OK(tess_engine_set_viewport(e, 300, &corrected), e);
    OK(tess_engine_get_viewport(e, &v), e);
    CHECK(v == 300);
    check_engine_equals_model(e, &m);

    /* Everything removed: no anchor. */
    OK(tess_engine_remove(e, 0, m.count, &corrected), e);
    CHECK(corrected == 0);
    OK(tess_engine_get_anchor(e, &has, &anchor, &in_row), e);
    CHECK(has == 0 && anchor == 0 && in_row == 0);
    tess_engine_destroy(e);
    free(m.ids);
    free(m.kinds);
    free(m.heights);
    free(m.flags);
}

/* ===================================================================================== */
/* Engine: text, and every bad input                                                       */
/* ===================================================================================== */

typedef struct snapshot {
    int64_t count;
    double total, scroll, viewport, anchor_offset;
    uint64_t anchor_id, digest;
    int32_t has_anchor;
} snapshot;

static snapshot take_snapshot(tess_engine_t *e) {
    snapshot s;
    memset(&s, 0, sizeof s);
    OK(tess_engine_row_count(e, &s.count), e);
    OK(tess_engine_total_height(e, &s.total), e);
    OK(tess_engine_get_scroll_offset(e, &s.scroll), e);
    OK(tess_engine_get_viewport(e, &s.viewport), e);
    OK(tess_engine_get_anchor(e, &s.has_anchor, &s.anchor_id, &s.anchor_offset), e);
    s.digest = 1469598103934665603ull;
    for (int64_t i = 0; i < s.count; i++) {
        tess_row_info r;
        OK(tess_engine_get_row(e, i, &r), e);
        uint64_t hb;
        memcpy(&hb, &r.height, sizeof hb);
        s.digest = (s.digest ^ r.id ^ (hb * 31) ^ ((uint64_t)r.kind << 40) ^ ((uint64_t)r.flags << 56)) * 1099511628211ull;
        for (int slot = 0; slot < 3; slot++) {
            char text[64];
            int64_t len = 0;
            OK(tess_engine_row_text(e, i, slot, text, sizeof text, &len), e);
            for (int64_t k = 0; k < len; k++) s.digest = (s.digest ^ (uint8_t)text[k]) * 1099511628211ull;
        }
    }
    return s;
}

static int same_snapshot(snapshot a, snapshot b) {
    return a.count == b.count && a.total == b.total && a.scroll == b.scroll && a.viewport == b.viewport &&
           a.has_anchor == b.has_anchor && a.anchor_id == b.anchor_id && a.anchor_offset == b.anchor_offset &&
           a.digest == b.digest;
}

static void test_engine_text_and_errors(void) {
    tess_engine_t *e = NULL;
    double y = -1;
    const double nan = NAN, inf = INFINITY;

    /* create: bad input reported per thread. */
    FAILS(tess_engine_create(NULL, 3, 600, &e), NULL, TESS_ERROR_NULL_ARGUMENT, "estimated_heights");
    FAILS(tess_engine_create(estimates, -1, 600, &e), NULL, TESS_ERROR_INVALID_ARGUMENT, "kind_count");
    FAILS(tess_engine_create(estimates, 3, nan, &e), NULL, TESS_ERROR_INVALID_ARGUMENT, "viewport");
    FAILS(tess_engine_create(estimates, 3, -5, &e), NULL, TESS_ERROR_INVALID_ARGUMENT, "viewport");
    FAILS(tess_engine_create(estimates, 3, inf, &e), NULL, TESS_ERROR_INVALID_ARGUMENT, "viewport");
    double bad_estimates[2] = {40, nan};
    FAILS(tess_engine_create(bad_estimates, 2, 600, &e), NULL, TESS_ERROR_INVALID_ARGUMENT, "estimated_heights");
    double huge_estimates[1] = {1e9};
    FAILS(tess_engine_create(huge_estimates, 1, 600, &e), NULL, TESS_ERROR_INVALID_ARGUMENT, "estimated_heights");
    FAILS(tess_engine_create(estimates, 70000, 600, &e), NULL, TESS_ERROR_CAPACITY, "kind_count");
    FAILS(tess_engine_create(estimates, 3, 600, NULL), NULL, TESS_ERROR_NULL_ARGUMENT, "out");
    CHECK(e == NULL);
    OK(tess_engine_create(estimates, 3, 100, &e), NULL);

    /* Rows with text: 3 slots per row, "Coffee" "-4.50" "" / "Salary" "" "+2,400.00" / "Zürich" ... */
    const char utf8[] = "Coffee-4.50Salary+2,400.00Z\xc3\xbcrich\xf0\x9f\x91\x8d";
    int64_t offsets[10] = {0, 6, 11, 11, 17, 17, 26, 33, 37, 37};
    tess_text_columns text = {utf8, (int64_t)strlen(utf8), offsets, 3};
    uint64_t ids[3] = {101, 102, 103};
    uint16_t kinds[3] = {0, 0, 2};
    OK(tess_engine_append(e, ids, kinds, NULL, 3, &text, &y), e);
    char buffer[64];
    int64_t len = -1;
    OK(tess_engine_row_text(e, 0, 0, buffer, sizeof buffer, &len), e);
    CHECK(len == 6 && memcmp(buffer, "Coffee", 6) == 0);
    OK(tess_engine_row_text(e, 1, 2, buffer, sizeof buffer, &len), e);
    CHECK(len == 9 && memcmp(buffer, "+2,400.00", 9) == 0);
    OK(tess_engine_row_text(e, 2, 0, buffer, sizeof buffer, &len), e);
    CHECK(len == 7 && memcmp(buffer, "Z\xc3\xbcrich", 7) == 0);
    OK(tess_engine_row_text(e, 2, 1, buffer, sizeof buffer, &len), e);
    CHECK(len == 4 && memcmp(buffer, "\xf0\x9f\x91\x8d", 4) == 0);
    OK(tess_engine_row_text(e, 0, 7, buffer, sizeof buffer, &len), e); /* a slot the row lacks: empty */
    CHECK(len == 0);
    FAILS(tess_engine_row_text(e, 1, 2, buffer, 3, &len), e, TESS_ERROR_BUFFER_TOO_SMALL, "buffer");
    CHECK(len == 9);
    FAILS(tess_engine_row_text(e, 1, 2, NULL, 0, &len), e, TESS_ERROR_BUFFER_TOO_SMALL, "buffer");
    CHECK(len == 9);
    FAILS(tess_engine_row_text(e, 1, 2, NULL, 5, &len), e, TESS_ERROR_NULL_ARGUMENT, "buffer");
    FAILS(tess_engine_row_text(e, 1, -1, buffer, 64, &len), e, TESS_ERROR_OUT_OF_RANGE, "slot");
    FAILS(tess_engine_row_text(e, 3, 0, buffer, 64, &len), e, TESS_ERROR_OUT_OF_RANGE, "row");
    FAILS(tess_engine_row_text(e, 0, 0, buffer, 64, NULL), e, TESS_ERROR_NULL_ARGUMENT, "length");

    OK(tess_engine_scroll_to(e, 30, &y), e);
    snapshot before = take_snapshot(e);
    CHECK(before.count == 3 && NEAR(before.total, 56 + 56 + 44) && before.scroll == 30);

    /* Every bad input of the mutating calls: the status, a message naming the argument, and
     * the engine unchanged. */
    uint64_t dup_ids[2] = {200, 200}, old_ids[1] = {101}, ok_ids[2] = {200, 201};
    uint16_t ok_kinds[2] = {0, 1}, bad_kinds[2] = {0, 3};
    double ok_heights[2] = {10, 20}, nan_heights[2] = {10, nan}, neg_heights[2] = {-1, 20}, inf_heights[2] = {inf, 1};
    FAILS(tess_engine_append(NULL, ok_ids, ok_kinds, NULL, 2, NULL, &y), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_append(e, NULL, ok_kinds, NULL, 2, NULL, &y), e, TESS_ERROR_NULL_ARGUMENT, "ids");
    FAILS(tess_engine_append(e, ok_ids, NULL, NULL, 2, NULL, &y), e, TESS_ERROR_NULL_ARGUMENT, "kinds");
    FAILS(tess_engine_append(e, ok_ids, ok_kinds, NULL, -2, NULL, &y), e, TESS_ERROR_INVALID_ARGUMENT, "count");
    FAILS(tess_engine_append(e, dup_ids, ok_kinds, NULL, 2, NULL, &y), e, TESS_ERROR_DUPLICATE_ID, "200");
    FAILS(tess_engine_append(e, old_ids, ok_kinds, NULL, 1, NULL, &y), e, TESS_ERROR_DUPLICATE_ID, "101");
    FAILS(tess_engine_append(e, ok_ids, bad_kinds, NULL, 2, NULL, &y), e, TESS_ERROR_UNKNOWN_KIND, "kind 3");
    FAILS(tess_engine_append(e, ok_ids, ok_kinds, nan_heights, 2, NULL, &y), e, TESS_ERROR_INVALID_ARGUMENT, "height");
    FAILS(tess_engine_append(e, ok_ids, ok_kinds, neg_heights, 2, NULL, &y), e, TESS_ERROR_INVALID_ARGUMENT, "height");
    FAILS(tess_engine_append(e, ok_ids, ok_kinds, inf_heights, 2, NULL, &y), e, TESS_ERROR_INVALID_ARGUMENT, "height");
    FAILS(tess_engine_insert(e, -1, ok_ids, ok_kinds, NULL, 2, NULL, &y), e, TESS_ERROR_OUT_OF_RANGE, "index -1");
    FAILS(tess_engine_insert(e, 4, ok_ids, ok_kinds, NULL, 2, NULL, &y), e, TESS_ERROR_OUT_OF_RANGE, "index 4");
    FAILS(tess_engine_insert(e, 1, ok_ids, ok_kinds, NULL, -1, NULL, &y), e, TESS_ERROR_INVALID_ARGUMENT, "count");
    FAILS(tess_engine_insert(NULL, 1, ok_ids, ok_kinds, NULL, 2, NULL, &y), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    /* Bad text: invalid UTF-8, offsets past the buffer, decreasing, negative, slots. */
    const char bad_utf8[] = "ab\xff\xfe";
    int64_t two_rows[3] = {0, 2, 4};
    tess_text_columns t_bad = {bad_utf8, 4, two_rows, 1};
    FAILS(tess_engine_append(e, ok_ids, ok_kinds, NULL, 2, &t_bad, &y), e, TESS_ERROR_INVALID_UTF8, "row 1 slot 0");
    const char overlong[] = "a\xc0\xaf";
    int64_t one_row[2] = {0, 3};
    tess_text_columns t_overlong = {overlong, 3, one_row, 1};
    FAILS(tess_engine_append(e, ok_ids, ok_kinds, NULL, 1, &t_overlong, &y), e, TESS_ERROR_INVALID_UTF8, "UTF-8");
    const char surrogate[] = "\xed\xa0\x80";
    tess_text_columns t_surrogate = {surrogate, 3, one_row, 1};
    FAILS(tess_engine_append(e, ok_ids, ok_kinds, NULL, 1, &t_surrogate, &y), e, TESS_ERROR_INVALID_UTF8, "UTF-8");
    int64_t past[3] = {0, 2, 9};
    tess_text_columns t_past = {"abcd", 4, past, 1};
    FAILS(tess_engine_append(e, ok_ids, ok_kinds, NULL, 2, &t_past, &y), e, TESS_ERROR_INVALID_TEXT_OFFSETS, "row 1");
    int64_t decreasing[3] = {0, 3, 1};
    tess_text_columns t_decreasing = {"abcd", 4, decreasing, 1};
    FAILS(tess_engine_append(e, ok_ids, ok_kinds, NULL, 2, &t_decreasing, &y), e, TESS_ERROR_INVALID_TEXT_OFFSETS,
          "row 1");
    int64_t negative[3] = {-4, 1, 2};
    tess_text_columns t_negative = {"abcd", 4, negative, 1};
    FAILS(tess_engine_append(e, ok_ids, ok_kinds, NULL, 2, &t_negative, &y), e, TESS_ERROR_INVALID_TEXT_OFFSETS,
          "row 0");
    tess_text_columns t_slots = {"abcd", 4, two_rows, 300};
    FAILS(tess_engine_append(e, ok_ids, ok_kinds, NULL, 2, &t_slots, &y), e, TESS_ERROR_INVALID_ARGUMENT,
          "slots_per_row");
    tess_text_columns t_neg_slots = {"abcd", 4, two_rows, -1};
    FAILS(tess_engine_append(e, ok_ids, ok_kinds, NULL, 2, &t_neg_slots, &y), e, TESS_ERROR_INVALID_ARGUMENT,
          "slots_per_row");
    tess_text_columns t_no_offsets = {"abcd", 4, NULL, 1};
    FAILS(tess_engine_append(e, ok_ids, ok_kinds, NULL, 2, &t_no_offsets, &y), e, TESS_ERROR_NULL_ARGUMENT,
          "text.offsets");
    tess_text_columns t_no_bytes = {NULL, 4, two_rows, 1};
    FAILS(tess_engine_append(e, ok_ids, ok_kinds, NULL, 2, &t_no_bytes, &y), e, TESS_ERROR_NULL_ARGUMENT, "text.utf8");
    tess_text_columns t_neg_bytes = {"abcd", -4, two_rows, 1};
    FAILS(tess_engine_append(e, ok_ids, ok_kinds, NULL, 2, &t_neg_bytes, &y), e, TESS_ERROR_INVALID_ARGUMENT,
          "byte_count");
    /* remove, heights, flags */
    FAILS(tess_engine_remove(e, -1, 1, &y), e, TESS_ERROR_OUT_OF_RANGE, "rows -1");
    FAILS(tess_engine_remove(e, 2, 2, &y), e, TESS_ERROR_OUT_OF_RANGE, "rows 2");
    FAILS(tess_engine_remove(e, 0, -1, &y), e, TESS_ERROR_INVALID_ARGUMENT, "count");
    FAILS(tess_engine_remove(e, 1, INT64_MAX, &y), e, TESS_ERROR_OUT_OF_RANGE, "rows 1");
    FAILS(tess_engine_remove(NULL, 0, 1, &y), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_set_heights(e, 2, ok_heights, 2, &y), e, TESS_ERROR_OUT_OF_RANGE, "rows 2");
    FAILS(tess_engine_set_heights(e, -1, ok_heights, 1, &y), e, TESS_ERROR_OUT_OF_RANGE, "rows -1");
    FAILS(tess_engine_set_heights(e, 0, nan_heights, 2, &y), e, TESS_ERROR_INVALID_ARGUMENT, "heights[1]");
    FAILS(tess_engine_set_heights(e, 0, neg_heights, 2, &y), e, TESS_ERROR_INVALID_ARGUMENT, "heights[0]");
    FAILS(tess_engine_set_heights(e, 0, NULL, 2, &y), e, TESS_ERROR_NULL_ARGUMENT, "heights");
    FAILS(tess_engine_set_heights(e, 0, ok_heights, -2, &y), e, TESS_ERROR_INVALID_ARGUMENT, "count");
    FAILS(tess_engine_invalidate_height(e, 3, &y), e, TESS_ERROR_OUT_OF_RANGE, "row 3");
    FAILS(tess_engine_invalidate_height(e, -3, &y), e, TESS_ERROR_OUT_OF_RANGE, "row -3");
    FAILS(tess_engine_update_flags(e, 0, TESS_ROW_MEASURED, 0), e, TESS_ERROR_INVALID_ARGUMENT, "flags");
    FAILS(tess_engine_update_flags(e, 0, 0x100, 0), e, TESS_ERROR_INVALID_ARGUMENT, "flags");
    FAILS(tess_engine_update_flags(e, 0, TESS_ROW_SELECTED, TESS_ROW_SELECTED), e, TESS_ERROR_INVALID_ARGUMENT,
          "overlap");
    FAILS(tess_engine_update_flags(e, 9, TESS_ROW_SELECTED, 0), e, TESS_ERROR_OUT_OF_RANGE, "row 9");
    FAILS(tess_engine_scroll_to(e, nan, &y), e, TESS_ERROR_INVALID_ARGUMENT, "offset");
    FAILS(tess_engine_scroll_to(e, -1, &y), e, TESS_ERROR_INVALID_ARGUMENT, "offset");
    FAILS(tess_engine_scroll_to(e, inf, &y), e, TESS_ERROR_INVALID_ARGUMENT, "offset");
    FAILS(tess_engine_set_viewport(e, nan, &y), e, TESS_ERROR_INVALID_ARGUMENT, "viewport");
    FAILS(tess_engine_set_viewport(e, -inf, &y), e, TESS_ERROR_INVALID_ARGUMENT, "viewport");
    CHECK(same_snapshot(before, take_snapshot(e)));

    /* The read calls. */
    tess_visible_row rows[8];
    int64_t n = -1;
    tess_row_info info;
    double d;
    int64_t row;
    int32_t has;
    FAILS(tess_engine_window(NULL, 0, rows, 8, &n), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_window(e, 0, NULL, 8, &n), e, TESS_ERROR_NULL_ARGUMENT, "rows");
    FAILS(tess_engine_window(e, 0, rows, -1, &n), e, TESS_ERROR_INVALID_ARGUMENT, "capacity");
    FAILS(tess_engine_window(e, 0, rows, 8, NULL), e, TESS_ERROR_NULL_ARGUMENT, "count");
    FAILS(tess_engine_window(e, nan, rows, 8, &n), e, TESS_ERROR_INVALID_ARGUMENT, "overscan");
    FAILS(tess_engine_window(e, -1, rows, 8, &n), e, TESS_ERROR_INVALID_ARGUMENT, "overscan");
    FAILS(tess_engine_window(e, 0, rows, 1, &n), e, TESS_ERROR_BUFFER_TOO_SMALL, "rows holds 1");
    CHECK(n == 3); /* viewport 100 at 30, [30, 130): rows 0 (0..56), 1 (56..112), 2 (112..156) */
    FAILS(tess_engine_window(e, 0, NULL, 0, &n), e, TESS_ERROR_BUFFER_TOO_SMALL, "rows");
    CHECK(n == 3);
    OK(tess_engine_window(e, 0, rows, 3, &n), e);
    CHECK(n == 3 && rows[0].id == 101 && rows[1].id == 102 && rows[1].y == 56 && rows[2].y == 112);
    OK(tess_engine_window_at(e, 0, 56, 0, 0, rows, 3, &n), e); /* [0, 56): row 0 only */
    CHECK(n == 1 && rows[0].row == 0);
    FAILS(tess_engine_window_at(e, nan, 100, 0, 0, rows, 8, &n), e, TESS_ERROR_INVALID_ARGUMENT, "offset");
    FAILS(tess_engine_window_at(e, -1, 100, 0, 0, rows, 8, &n), e, TESS_ERROR_INVALID_ARGUMENT, "offset");
    FAILS(tess_engine_window_at(e, 0, inf, 0, 0, rows, 8, &n), e, TESS_ERROR_INVALID_ARGUMENT, "viewport");
    FAILS(tess_engine_window_at(e, 0, 100, -1, 0, rows, 8, &n), e, TESS_ERROR_INVALID_ARGUMENT, "overscan");
    FAILS(tess_engine_window_at(e, 0, 100, 0, nan, rows, 8, &n), e, TESS_ERROR_INVALID_ARGUMENT, "overscan");
    OK(tess_engine_window_at(e, 1e6, 100, 0, 0, rows, 8, &n), e); /* past the end: empty */
    CHECK(n == 0);
    OK(tess_engine_window_at(e, 0, 1e6, 0, 0, NULL, 0, &n) == TESS_ERROR_BUFFER_TOO_SMALL ? TESS_OK : 1, e);
    CHECK(n == 3);
    FAILS(tess_engine_get_row(e, 3, &info), e, TESS_ERROR_OUT_OF_RANGE, "row 3");
    FAILS(tess_engine_get_row(e, -1, &info), e, TESS_ERROR_OUT_OF_RANGE, "row -1");
    FAILS(tess_engine_get_row(e, 0, NULL), e, TESS_ERROR_NULL_ARGUMENT, "out");
    FAILS(tess_engine_get_row(NULL, 0, &info), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_index_of(e, 999, &row), e, TESS_ERROR_UNKNOWN_ID, "999");
    FAILS(tess_engine_index_of(e, 101, NULL), e, TESS_ERROR_NULL_ARGUMENT, "row");
    FAILS(tess_engine_offset_of_row(e, 3, &d), e, TESS_ERROR_OUT_OF_RANGE, "row 3");
    FAILS(tess_engine_offset_of_row(e, 0, NULL), e, TESS_ERROR_NULL_ARGUMENT, "offset");
    FAILS(tess_engine_row_at_offset(e, nan, &row, &d), e, TESS_ERROR_INVALID_ARGUMENT, "y");
    FAILS(tess_engine_row_at_offset(e, -0.5, &row, &d), e, TESS_ERROR_INVALID_ARGUMENT, "y");
    FAILS(tess_engine_row_at_offset(e, 0, NULL, &d), e, TESS_ERROR_NULL_ARGUMENT, "row");
    FAILS(tess_engine_scroll_offset_to_row(e, 0, 3, &d), e, TESS_ERROR_INVALID_ARGUMENT, "position");
    FAILS(tess_engine_scroll_offset_to_row(e, 0, -1, &d), e, TESS_ERROR_INVALID_ARGUMENT, "position");
    FAILS(tess_engine_scroll_offset_to_row(e, 5, TESS_SCROLL_TOP, &d), e, TESS_ERROR_OUT_OF_RANGE, "row 5");
    FAILS(tess_engine_scroll_offset_to_row(e, 0, TESS_SCROLL_TOP, NULL), e, TESS_ERROR_NULL_ARGUMENT, "offset");
    FAILS(tess_engine_get_anchor(e, NULL, NULL, NULL), e, TESS_ERROR_NULL_ARGUMENT, "has_anchor");
    FAILS(tess_engine_row_count(e, NULL), e, TESS_ERROR_NULL_ARGUMENT, "count");
    FAILS(tess_engine_total_height(e, NULL), e, TESS_ERROR_NULL_ARGUMENT, "out");
    FAILS(tess_engine_get_scroll_offset(e, NULL), e, TESS_ERROR_NULL_ARGUMENT, "out");
    FAILS(tess_engine_max_scroll_offset(e, NULL), e, TESS_ERROR_NULL_ARGUMENT, "out");
    FAILS(tess_engine_get_viewport(e, NULL), e, TESS_ERROR_NULL_ARGUMENT, "out");
    FAILS(tess_engine_row_count(NULL, &n), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_total_height(NULL, &d), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_get_scroll_offset(NULL, &d), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_max_scroll_offset(NULL, &d), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_get_viewport(NULL, &d), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_get_anchor(NULL, &has, NULL, NULL), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_index_of(NULL, 1, &row), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_offset_of_row(NULL, 0, &d), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_row_at_offset(NULL, 0, &row, &d), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_scroll_offset_to_row(NULL, 0, 0, &d), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_scroll_to(NULL, 0, &d), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_set_viewport(NULL, 0, &d), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_set_heights(NULL, 0, ok_heights, 1, &d), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_invalidate_height(NULL, 0, &d), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_update_flags(NULL, 0, 0, 0), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_row_text(NULL, 0, 0, buffer, 64, &len), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_window_at(NULL, 0, 1, 0, 0, rows, 8, &n), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    CHECK(same_snapshot(before, take_snapshot(e)));

    /* Still usable after all that: the last error stays until the next failure. */
    CHECK(strstr(tess_last_error(e), "tess_engine_") != NULL);
    OK(tess_engine_append(e, ok_ids, ok_kinds, ok_heights, 2, NULL, &y), e);
    CHECK(y == 30);
    OK(tess_engine_update_flags(e, 3, TESS_ROW_SELECTED | TESS_ROW_UNREAD, 0), e);
    OK(tess_engine_get_row(e, 3, &info), e);
    CHECK(info.id == 200 && info.height == 10 && info.flags == (TESS_ROW_MEASURED | TESS_ROW_SELECTED | TESS_ROW_UNREAD));
    OK(tess_engine_update_flags(e, 3, TESS_ROW_SWIPE_OPEN, TESS_ROW_UNREAD), e);
    OK(tess_engine_get_row(e, 3, &info), e);
    CHECK(info.flags == (TESS_ROW_MEASURED | TESS_ROW_SELECTED | TESS_ROW_SWIPE_OPEN));
    OK(tess_engine_append(e, NULL, NULL, NULL, 0, NULL, NULL), e); /* an empty batch */
    tess_engine_destroy(e);
    tess_engine_destroy(NULL);
    OK(tess_engine_create(estimates, 0, 0, &e), NULL); /* no kinds: nothing to append */
    FAILS(tess_engine_append(e, ok_ids, ok_kinds, NULL, 1, NULL, &y), e, TESS_ERROR_UNKNOWN_KIND, "kind 0");
    tess_engine_destroy(e);
}

/* ===================================================================================== */
/* Diff: hand examples, both forms re-applied to the old list                             */
/* ===================================================================================== */

/* Applies the sequential operations to `old` (ids) and checks the result is `new`. */
static void check_operations(tess_differ_t *d, const uint64_t *old_ids, int64_t old_count, const uint64_t *new_ids,
                             int64_t new_count) {
    int64_t n = 0;
    CHECK(tess_differ_operations(d, NULL, 0, &n) == (n == 0 ? TESS_OK : TESS_ERROR_BUFFER_TOO_SMALL));
    tess_diff_operation *ops = malloc(sizeof(tess_diff_operation) * (size_t)(n + 1));
    OK(tess_differ_operations(d, ops, n, &n), d);
    uint64_t *list = malloc(sizeof(uint64_t) * (size_t)(old_count + new_count + 1));
    int64_t length = old_count;
    memcpy(list, old_ids, sizeof(uint64_t) * (size_t)old_count);
    for (int64_t i = 0; i < n; i++) {
        tess_diff_operation o = ops[i];
        if (o.type == TESS_OP_REMOVE) {
            CHECK(o.a >= 0 && o.b > 0 && o.a + o.b <= length);
            memmove(list + o.a, list + o.a + o.b, sizeof(uint64_t) * (size_t)(length - o.a - o.b));
            length -= o.b;
        } else if (o.type == TESS_OP_MOVE) {
            CHECK(o.a >= 0 && o.a < length && o.b >= 0 && o.b < length);
            uint64_t v = list[o.a];
            memmove(list + o.a, list + o.a + 1, sizeof(uint64_t) * (size_t)(length - o.a - 1));
            memmove(list + o.b + 1, list + o.b, sizeof(uint64_t) * (size_t)(length - 1 - o.b));
            list[o.b] = v;
        } else if (o.type == TESS_OP_INSERT) {
            CHECK(o.a >= 0 && o.a <= length && o.b > 0);
            memmove(list + o.a + o.b, list + o.a, sizeof(uint64_t) * (size_t)(length - o.a));
            for (int64_t k = 0; k < o.b; k++) list[o.a + k] = new_ids[o.a + k];
            length += o.b;
        } else {
            CHECK(o.type == TESS_OP_CHANGE && o.a >= 0 && o.a + o.b <= length);
        }
    }
    CHECK(length == new_count && memcmp(list, new_ids, sizeof(uint64_t) * (size_t)new_count) == 0);
    free(list);
    free(ops);
}

static void check_batch(tess_differ_t *d, const uint64_t *old_ids, int64_t old_count, const uint64_t *new_ids,
                        int64_t new_count) {
    /* The batch form: survivors (old minus deletes) placed by the moves and by their order
     * must land exactly where the new list has them. */
    tess_diff_counts c;
    OK(tess_differ_get_counts(d, &c), d);
    CHECK(c.old_count == old_count && c.new_count == new_count);
    int64_t *deletes = malloc(sizeof(int64_t) * (size_t)(c.deletes + 1));
    int64_t *inserts = malloc(sizeof(int64_t) * (size_t)(c.inserts + 1));
    tess_diff_move *moves = malloc(sizeof(tess_diff_move) * (size_t)(c.moves + 1));
    int64_t n;
    OK(tess_differ_indexes(d, TESS_DIFF_DELETES, deletes, c.deletes, &n), d);
    CHECK(n == c.deletes);
    OK(tess_differ_indexes(d, TESS_DIFF_INSERTS, inserts, c.inserts, &n), d);
    CHECK(n == c.inserts);
    OK(tess_differ_moves(d, moves, c.moves, &n), d);
    CHECK(n == c.moves);
    /* new index of every surviving old row, by id lookup, and the check that only
     * deletes vanish and only inserts appear */
    int64_t deleted = 0, inserted = 0;
    for (int64_t i = 0; i < old_count; i++) {
        int found = 0;
        for (int64_t j = 0; j < new_count; j++) found |= new_ids[j] == old_ids[i];
        int is_deleted = 0;
        for (int64_t k = 0; k < c.deletes; k++) is_deleted |= deletes[k] == i;
        CHECK(found != is_deleted);
        deleted += is_deleted;
    }
    for (int64_t j = 0; j < new_count; j++) {
        int found = 0;
        for (int64_t i = 0; i < old_count; i++) found |= new_ids[j] == old_ids[i];
        int is_inserted = 0;
        for (int64_t k = 0; k < c.inserts; k++) is_inserted |= inserts[k] == j;
        CHECK(found != is_inserted);
        inserted += is_inserted;
    }
    CHECK(deleted == c.deletes && inserted == c.inserts);
    for (int64_t k = 0; k < c.moves; k++)
        CHECK(moves[k].from >= 0 && moves[k].from < old_count && moves[k].to >= 0 && moves[k].to < new_count &&
              old_ids[moves[k].from] == new_ids[moves[k].to]);
    free(deletes);
    free(inserts);
    free(moves);
}

static void test_diff(void) {
    tess_differ_t *d = NULL;
    OK(tess_differ_create(&d), NULL);
    tess_diff_counts c;
    int64_t n = -1, idx[16];
    tess_diff_move moves[16];
    tess_diff_operation ops[16];
    FAILS(tess_differ_get_counts(d, &c), d, TESS_ERROR_NO_RESULT, "no diff");
    FAILS(tess_differ_indexes(d, TESS_DIFF_DELETES, idx, 16, &n), d, TESS_ERROR_NO_RESULT, "no diff");
    FAILS(tess_differ_moves(d, moves, 16, &n), d, TESS_ERROR_NO_RESULT, "no diff");
    FAILS(tess_differ_operations(d, ops, 16, &n), d, TESS_ERROR_NO_RESULT, "no diff");

    /* old: A B C D E (versions 1), new: B A' C F E with A changed; D deleted, F inserted.
     * Hand-computed: deletes [3], inserts [3], B/A swap -> one move; A updated. */
    uint64_t old_ids[5] = {1, 2, 3, 4, 5}, old_v[5] = {1, 1, 1, 1, 1};
    uint64_t new_ids[5] = {2, 1, 3, 6, 5}, new_v[5] = {1, 2, 1, 1, 1};
    OK(tess_differ_diff(d, old_ids, old_v, 5, new_ids, new_v, 5, &c), d);
    CHECK(c.old_count == 5 && c.new_count == 5 && c.deletes == 1 && c.inserts == 1 && c.moves == 1 && c.updates == 1);
    OK(tess_differ_indexes(d, TESS_DIFF_DELETES, idx, 16, &n), d);
    CHECK(n == 1 && idx[0] == 3);
    OK(tess_differ_indexes(d, TESS_DIFF_INSERTS, idx, 16, &n), d);
    CHECK(n == 1 && idx[0] == 3);
    OK(tess_differ_indexes(d, TESS_DIFF_UPDATES, idx, 16, &n), d);
    CHECK(n == 1 && idx[0] == 0);
    OK(tess_differ_indexes(d, TESS_DIFF_UPDATED_NEW_INDEXES, idx, 16, &n), d);
    CHECK(n == 1 && idx[0] == 1);
    OK(tess_differ_moves(d, moves, 16, &n), d);
    /* The tie rule keeps the row that ends up first (B) and moves A (old 0 -> new 1). */
    CHECK(n == 1 && moves[0].from == 0 && moves[0].to == 1);
    OK(tess_differ_operations(d, ops, 16, &n), d);
    CHECK(n == c.operations && n == 4);
    CHECK(ops[0].type == TESS_OP_REMOVE && ops[0].a == 3 && ops[0].b == 1);
    CHECK(ops[1].type == TESS_OP_MOVE && ops[1].a == 0 && ops[1].b == 1);
    CHECK(ops[2].type == TESS_OP_INSERT && ops[2].a == 3 && ops[2].b == 1);
    CHECK(ops[3].type == TESS_OP_CHANGE && ops[3].a == 1 && ops[3].b == 1);
    check_operations(d, old_ids, 5, new_ids, 5);
    check_batch(d, old_ids, 5, new_ids, 5);

    /* Random snapshots: both forms re-applied. */
    for (int round = 0; round < 60; round++) {
        uint64_t a[120], av[120], b[120], bv[120];
        int64_t na = random_below(100), nb = 0;
        for (int64_t i = 0; i < na; i++) {
            a[i] = (uint64_t)i * 31 + 7;
            av[i] = 1;
        }
        for (int64_t i = 0; i < na; i++)
            if (random_below(4)) {
                b[nb] = a[i];
                bv[nb++] = random_below(5) ? 1 : 2;
            }
        for (int64_t k = random_below(20); k > 0; k--) {
            int64_t at = random_below(nb + 1);
            memmove(b + at + 1, b + at, sizeof(uint64_t) * (size_t)(nb - at));
            memmove(bv + at + 1, bv + at, sizeof(uint64_t) * (size_t)(nb - at));
            b[at] = 100000 + (uint64_t)round * 100 + (uint64_t)k;
            bv[at] = 1;
            nb++;
        }
        for (int64_t k = random_below(6); k > 0 && nb > 1; k--) { /* swap two */
            int64_t i = random_below(nb), j = random_below(nb);
            uint64_t t = b[i], tv = bv[i];
            b[i] = b[j];
            bv[i] = bv[j];
            b[j] = t;
            bv[j] = tv;
        }
        OK(tess_differ_diff(d, a, av, na, b, bv, nb, NULL), d);
        check_operations(d, a, na, b, nb);
        check_batch(d, a, na, b, nb);
    }

    /* Bad input: the last result stays. */
    OK(tess_differ_diff(d, old_ids, old_v, 5, new_ids, new_v, 5, NULL), d);
    uint64_t dup[3] = {1, 2, 1}, ver[3] = {0, 0, 0};
    FAILS(tess_differ_diff(d, dup, ver, 3, new_ids, new_v, 5, &c), d, TESS_ERROR_DUPLICATE_ID, "old");
    FAILS(tess_differ_diff(d, old_ids, old_v, 5, dup, ver, 3, &c), d, TESS_ERROR_DUPLICATE_ID, "new");
    FAILS(tess_differ_diff(d, NULL, old_v, 5, new_ids, new_v, 5, &c), d, TESS_ERROR_NULL_ARGUMENT, "old_ids");
    FAILS(tess_differ_diff(d, old_ids, NULL, 5, new_ids, new_v, 5, &c), d, TESS_ERROR_NULL_ARGUMENT, "old_versions");
    FAILS(tess_differ_diff(d, old_ids, old_v, 5, NULL, new_v, 5, &c), d, TESS_ERROR_NULL_ARGUMENT, "new_ids");
    FAILS(tess_differ_diff(d, old_ids, old_v, 5, new_ids, NULL, 5, &c), d, TESS_ERROR_NULL_ARGUMENT, "new_versions");
    FAILS(tess_differ_diff(d, old_ids, old_v, -5, new_ids, new_v, 5, &c), d, TESS_ERROR_INVALID_ARGUMENT, "old_count");
    FAILS(tess_differ_diff(d, old_ids, old_v, 5, new_ids, new_v, -1, &c), d, TESS_ERROR_INVALID_ARGUMENT, "new_count");
    FAILS(tess_differ_diff(NULL, old_ids, old_v, 5, new_ids, new_v, 5, &c), NULL, TESS_ERROR_NULL_ARGUMENT, "differ");
    OK(tess_differ_get_counts(d, &c), d);
    CHECK(c.deletes == 1 && c.inserts == 1 && c.moves == 1 && c.updates == 1);
    FAILS(tess_differ_indexes(d, 7, idx, 16, &n), d, TESS_ERROR_INVALID_ARGUMENT, "which");
    FAILS(tess_differ_indexes(d, -1, idx, 16, &n), d, TESS_ERROR_INVALID_ARGUMENT, "which");
    FAILS(tess_differ_indexes(d, TESS_DIFF_DELETES, idx, -1, &n), d, TESS_ERROR_INVALID_ARGUMENT, "capacity");
    FAILS(tess_differ_indexes(d, TESS_DIFF_DELETES, NULL, 4, &n), d, TESS_ERROR_NULL_ARGUMENT, "indexes");
    FAILS(tess_differ_indexes(d, TESS_DIFF_DELETES, idx, 0, &n), d, TESS_ERROR_BUFFER_TOO_SMALL, "indexes");
    CHECK(n == 1);
    FAILS(tess_differ_indexes(d, TESS_DIFF_DELETES, idx, 16, NULL), d, TESS_ERROR_NULL_ARGUMENT, "count");
    FAILS(tess_differ_moves(d, moves, 0, &n), d, TESS_ERROR_BUFFER_TOO_SMALL, "moves");
    CHECK(n == 1);
    FAILS(tess_differ_moves(d, NULL, 3, &n), d, TESS_ERROR_NULL_ARGUMENT, "moves");
    FAILS(tess_differ_operations(d, ops, 2, &n), d, TESS_ERROR_BUFFER_TOO_SMALL, "operations");
    CHECK(n == 4);
    FAILS(tess_differ_operations(d, ops, 16, NULL), d, TESS_ERROR_NULL_ARGUMENT, "count");
    FAILS(tess_differ_get_counts(d, NULL), d, TESS_ERROR_NULL_ARGUMENT, "out");
    FAILS(tess_differ_get_counts(NULL, &c), NULL, TESS_ERROR_NULL_ARGUMENT, "differ");
    FAILS(tess_differ_indexes(NULL, 0, idx, 16, &n), NULL, TESS_ERROR_NULL_ARGUMENT, "differ");
    FAILS(tess_differ_moves(NULL, moves, 16, &n), NULL, TESS_ERROR_NULL_ARGUMENT, "differ");
    FAILS(tess_differ_operations(NULL, ops, 16, &n), NULL, TESS_ERROR_NULL_ARGUMENT, "differ");
    FAILS(tess_differ_create(NULL), NULL, TESS_ERROR_NULL_ARGUMENT, "out");
    /* Empty sides. */
    OK(tess_differ_diff(d, NULL, NULL, 0, NULL, NULL, 0, &c), d);
    CHECK(c.old_count == 0 && c.new_count == 0 && c.operations == 0);
    OK(tess_differ_diff(d, NULL, NULL, 0, new_ids, new_v, 5, &c), d);
    CHECK(c.inserts == 5 && c.operations == 1);
    tess_differ_destroy(d);
}

/* ===================================================================================== */
/* Fonts, styles, the text engine and the host callback                                   */
/* ===================================================================================== */

/* The stub of Profiles/README's worked examples: 'y' is 9.9 wide, ' ' 5, any other byte 10;
 * the size is ignored. `mode` 1 returns NaN for runs holding 'N', 2 a negative width. */
typedef struct stub_context {
    int mode;
    int64_t calls;
} stub_context;

static double stub_measure(void *context, const char *utf8, int64_t byte_count, int32_t face, double size) {
    stub_context *c = context;
    (void)face;
    (void)size;
    c->calls++;
    double w = 0;
    for (int64_t i = 0; i < byte_count; i++) {
        char b = utf8[i];
        if (c->mode == 1 && b == 'N') return NAN;
        if (c->mode == 2 && b == 'N') return -3;
        if (c->mode == 3 && b == 'N') return INFINITY;
        w += b == 'y' ? 9.9 : b == ' ' ? 5 : 10;
    }
    return w;
}

static void test_text(void) {
    tess_font_t *roboto = NULL, *dejavu = NULL, *from_bytes = NULL, *bad = NULL;
    OK(tess_font_load_path(ROBOTO, (int64_t)strlen(ROBOTO), 0, &roboto), NULL);
    OK(tess_font_load_path(DEJAVU, (int64_t)strlen(DEJAVU), 0, &dejavu), NULL);
    int64_t size = 0;
    char *bytes = read_file(ROBOTO, &size);
    CHECK(bytes != NULL);
    OK(tess_font_load_bytes(bytes, size, 0, &from_bytes), NULL);
    tess_font_info info, info2;
    OK(tess_font_get_info(roboto, &info), roboto);
    OK(tess_font_get_info(from_bytes, &info2), from_bytes);
    CHECK(info.units_per_em == 2048 && info.glyph_count > 1000 && info.ascender > 0 && info.descender < 0);
    CHECK(memcmp(&info, &info2, sizeof info) == 0);
    /* HarfBuzz (hb-shape --font-size=2048, Roboto-Regular): "Hello" advances 1461 + 1086 +
     * 498 + 498 + 1168 = 4711, "AVATAR" with kerning 1249 + 1229 + 1207 + 1143 + 1336 + 1262
     * = 7426 (7796 unkerned). At size 2048 a unit is a point. */
    double w = 0;
    OK(tess_font_text_width(roboto, "Hello", 5, 2048, &w), roboto);
    CHECK(NEAR(w, 4711));
    OK(tess_font_text_width(from_bytes, "AVATAR", 6, 2048, &w), from_bytes);
    CHECK(NEAR(w, 7426));
    OK(tess_font_text_width(roboto, "Hello", 5, 15, &w), roboto);
    CHECK(NEAR(w, 4711.0 * 15 / 2048));
    OK(tess_font_text_width(roboto, NULL, 0, 15, &w), roboto);
    CHECK(w == 0);

    /* Font bad input. */
    FAILS(tess_font_load_path("/nonexistent.ttf", 16, 0, &bad), NULL, TESS_ERROR_IO, "/nonexistent.ttf");
    FAILS(tess_font_load_path(NULL, 3, 0, &bad), NULL, TESS_ERROR_NULL_ARGUMENT, "path");
    FAILS(tess_font_load_path(ROBOTO, -1, 0, &bad), NULL, TESS_ERROR_INVALID_ARGUMENT, "path");
    FAILS(tess_font_load_path("\xff\xfe", 2, 0, &bad), NULL, TESS_ERROR_INVALID_UTF8, "path");
    FAILS(tess_font_load_path("a\0b", 3, 0, &bad), NULL, TESS_ERROR_INVALID_ARGUMENT, "NUL");
    FAILS(tess_font_load_path(ROBOTO, (int64_t)strlen(ROBOTO), -1, &bad), NULL, TESS_ERROR_INVALID_ARGUMENT,
          "face_index");
    FAILS(tess_font_load_path(ROBOTO, (int64_t)strlen(ROBOTO), 3, &bad), NULL, TESS_ERROR_INVALID_FONT, "font");
    FAILS(tess_font_load_path(ROBOTO, (int64_t)strlen(ROBOTO), 0, NULL), NULL, TESS_ERROR_NULL_ARGUMENT, "out");
    const char garbage[64] = "this is not a font, not even close; OpenType wants tables";
    FAILS(tess_font_load_bytes(garbage, 64, 0, &bad), NULL, TESS_ERROR_INVALID_FONT, "bytes");
    FAILS(tess_font_load_bytes(bytes, 1000, 0, &bad), NULL, TESS_ERROR_INVALID_FONT, "bytes"); /* truncated */
    FAILS(tess_font_load_bytes(bytes, 0, 0, &bad), NULL, TESS_ERROR_INVALID_FONT, "bytes");
    FAILS(tess_font_load_bytes(NULL, 10, 0, &bad), NULL, TESS_ERROR_NULL_ARGUMENT, "bytes");
    FAILS(tess_font_load_bytes(bytes, -10, 0, &bad), NULL, TESS_ERROR_INVALID_ARGUMENT, "byte_count");
    CHECK(bad == NULL);
    FAILS(tess_font_get_info(NULL, &info), NULL, TESS_ERROR_NULL_ARGUMENT, "font");
    FAILS(tess_font_get_info(roboto, NULL), roboto, TESS_ERROR_NULL_ARGUMENT, "out");
    FAILS(tess_font_text_width(roboto, "\xc3", 1, 15, &w), roboto, TESS_ERROR_INVALID_UTF8, "utf8");
    FAILS(tess_font_text_width(roboto, "Hello", 5, NAN, &w), roboto, TESS_ERROR_INVALID_ARGUMENT, "size");
    FAILS(tess_font_text_width(roboto, "Hello", 5, 0, &w), roboto, TESS_ERROR_INVALID_ARGUMENT, "size");
    FAILS(tess_font_text_width(roboto, NULL, 5, 15, &w), roboto, TESS_ERROR_NULL_ARGUMENT, "utf8");
    FAILS(tess_font_text_width(roboto, "Hello", -5, 15, &w), roboto, TESS_ERROR_INVALID_ARGUMENT, "byte_count");
    FAILS(tess_font_text_width(roboto, "Hello", 5, 15, NULL), roboto, TESS_ERROR_NULL_ARGUMENT, "out_width");
    FAILS(tess_font_text_width(NULL, "Hello", 5, 15, &w), NULL, TESS_ERROR_NULL_ARGUMENT, "font");

    /* Styles. */
    tess_text_style_t *style = NULL, *bad_style = NULL;
    const tess_font_t *chain[2] = {roboto, dejavu};
    OK(tess_text_style_create(chain, 2, 15, 0, 0, &style), NULL);
    const tess_font_t *null_chain[2] = {roboto, NULL};
    FAILS(tess_text_style_create(null_chain, 2, 15, 0, 0, &bad_style), NULL, TESS_ERROR_NULL_ARGUMENT, "fonts[1]");
    FAILS(tess_text_style_create(NULL, 2, 15, 0, 0, &bad_style), NULL, TESS_ERROR_NULL_ARGUMENT, "fonts");
    FAILS(tess_text_style_create(chain, 0, 15, 0, 0, &bad_style), NULL, TESS_ERROR_INVALID_ARGUMENT, "font_count");
    FAILS(tess_text_style_create(chain, -2, 15, 0, 0, &bad_style), NULL, TESS_ERROR_INVALID_ARGUMENT, "font_count");
    FAILS(tess_text_style_create(chain, 2, NAN, 0, 0, &bad_style), NULL, TESS_ERROR_INVALID_ARGUMENT, "size");
    FAILS(tess_text_style_create(chain, 2, -15, 0, 0, &bad_style), NULL, TESS_ERROR_INVALID_ARGUMENT, "size");
    FAILS(tess_text_style_create(chain, 2, 15, -1, 0, &bad_style), NULL, TESS_ERROR_INVALID_ARGUMENT, "line_height");
    FAILS(tess_text_style_create(chain, 2, 15, INFINITY, 0, &bad_style), NULL, TESS_ERROR_INVALID_ARGUMENT,
          "line_height");
    FAILS(tess_text_style_create(chain, 2, 15, 0, NAN, &bad_style), NULL, TESS_ERROR_INVALID_ARGUMENT, "letter");
    FAILS(tess_text_style_create(chain, 2, 15, 0, 0, NULL), NULL, TESS_ERROR_NULL_ARGUMENT, "out");
    CHECK(bad_style == NULL);
    /* The style keeps its fonts: destroying the caller's handles is fine. */
    tess_font_destroy(dejavu);

    /* The built-in engine: "Hello" fits in one line 15 pt tall-ish; its width is the font's. */
    tess_text_engine_t *t = NULL;
    OK(tess_text_engine_create(NULL, &t), NULL);
    tess_text_metrics m;
    OK(tess_text_measure(t, style, "Hello", 5, 300, 0, &m), t);
    double line_height = (double)(info.ascender - info.descender + info.line_gap) * 15 / info.units_per_em;
    CHECK(m.line_count == 1 && m.truncated == 0 && NEAR(m.width, 4711.0 * 15 / 2048));
    CHECK(fabs(m.height - line_height) <= 1.0 / 64);
    /* Narrower than the text: one word per line. */
    OK(tess_text_measure(t, style, "Hello Hello Hello", 17, 40, 0, &m), t);
    CHECK(m.line_count == 3 && fabs(m.height - 3 * line_height) <= 3.0 / 64);
    OK(tess_text_measure(t, style, "Hello Hello Hello", 17, 40, 2, &m), t);
    CHECK(m.line_count == 2 && m.truncated == 1);
    tess_text_line lines[8];
    int64_t n = -1;
    OK(tess_text_measure_lines(t, style, "Hello Hello Hello", 17, 40, 0, lines, 8, &n, &m), t);
    CHECK(n == 3 && lines[0].start == 0 && lines[0].end == 6 && lines[1].start == 6 && lines[2].end == 17);
    CHECK(NEAR(lines[2].width, 4711.0 * 15 / 2048) && lines[2].ellipsized == 0);
    FAILS(tess_text_measure_lines(t, style, "Hello Hello Hello", 17, 40, 0, lines, 2, &n, &m), t,
          TESS_ERROR_BUFFER_TOO_SMALL, "lines");
    CHECK(n == 3);
    /* Bulk: three texts, one and two threads, equal to one by one. */
    const char *bulk = "HelloHello HelloZ\xc3\xbcrich Stra\xc3\x9f"
                       "e";
    int64_t offsets[4] = {0, 5, 16, (int64_t)strlen(bulk)};
    tess_text_metrics results[3], single;
    for (int64_t threads = 1; threads <= 2; threads++) {
        OK(tess_text_measure_bulk(t, style, bulk, offsets[3], offsets, 3, 40, 0, threads, results, 3), t);
        for (int i = 0; i < 3; i++) {
            OK(tess_text_measure(t, style, bulk + offsets[i], offsets[i + 1] - offsets[i], 40, 0, &single), t);
            CHECK(memcmp(&single, &results[i], sizeof single) == 0);
        }
    }
    OK(tess_text_measure_bulk(t, style, NULL, 0, offsets, 0, 40, 0, 1, NULL, 0), t); /* no texts */
    tess_text_statistics stats;
    OK(tess_text_engine_get_statistics(t, &stats), t);
    CHECK(stats.segments.budget == 32 << 20 && stats.prepared_texts.budget == 16 << 20 &&
          stats.line_breaks.budget == 8 << 20);
    CHECK(stats.line_breaks.hits + stats.line_breaks.misses > 0);
    OK(tess_text_engine_clear_caches(t), t);
    OK(tess_text_engine_get_statistics(t, &stats), t);
    CHECK(stats.line_breaks.entries == 0 && stats.prepared_texts.entries == 0);

    /* Text bad input. */
    FAILS(tess_text_measure(t, style, "ab\xff", 3, 100, 0, &m), t, TESS_ERROR_INVALID_UTF8, "utf8");
    FAILS(tess_text_measure(t, style, "Hello", 5, 0, 0, &m), t, TESS_ERROR_INVALID_ARGUMENT, "width");
    FAILS(tess_text_measure(t, style, "Hello", 5, NAN, 0, &m), t, TESS_ERROR_INVALID_ARGUMENT, "width");
    FAILS(tess_text_measure(t, style, "Hello", 5, -INFINITY, 0, &m), t, TESS_ERROR_INVALID_ARGUMENT, "width");
    FAILS(tess_text_measure(t, style, "Hello", 5, 100, -1, &m), t, TESS_ERROR_INVALID_ARGUMENT, "max_lines");
    FAILS(tess_text_measure(t, style, "Hello", -5, 100, 0, &m), t, TESS_ERROR_INVALID_ARGUMENT, "byte_count");
    FAILS(tess_text_measure(t, style, NULL, 5, 100, 0, &m), t, TESS_ERROR_NULL_ARGUMENT, "utf8");
    FAILS(tess_text_measure(t, NULL, "Hello", 5, 100, 0, &m), t, TESS_ERROR_NULL_ARGUMENT, "style");
    FAILS(tess_text_measure(t, style, "Hello", 5, 100, 0, NULL), t, TESS_ERROR_NULL_ARGUMENT, "out");
    FAILS(tess_text_measure(NULL, style, "Hello", 5, 100, 0, &m), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_text_measure_lines(t, style, "Hello", 5, 100, 0, NULL, 4, &n, &m), t, TESS_ERROR_NULL_ARGUMENT, "lines");
    FAILS(tess_text_measure_lines(t, style, "Hello", 5, 100, 0, lines, -4, &n, &m), t, TESS_ERROR_INVALID_ARGUMENT,
          "capacity");
    FAILS(tess_text_measure_lines(t, style, "Hello", 5, 100, 0, lines, 4, NULL, &m), t, TESS_ERROR_NULL_ARGUMENT,
          "count");
    FAILS(tess_text_measure_lines(NULL, style, "Hello", 5, 100, 0, lines, 4, &n, &m), NULL, TESS_ERROR_NULL_ARGUMENT,
          "engine");
    int64_t bad_offsets[4] = {0, 5, 3, 10};
    FAILS(tess_text_measure_bulk(t, style, bulk, offsets[3], bad_offsets, 3, 40, 0, 1, results, 3), t,
          TESS_ERROR_INVALID_TEXT_OFFSETS, "offsets[2]");
    int64_t past_offsets[4] = {0, 5, 16, 900};
    FAILS(tess_text_measure_bulk(t, style, bulk, offsets[3], past_offsets, 3, 40, 0, 1, results, 3), t,
          TESS_ERROR_INVALID_TEXT_OFFSETS, "offsets[3]");
    int64_t neg_offsets[4] = {-1, 5, 16, 20};
    FAILS(tess_text_measure_bulk(t, style, bulk, offsets[3], neg_offsets, 3, 40, 0, 1, results, 3), t,
          TESS_ERROR_INVALID_TEXT_OFFSETS, "offsets[0]");
    FAILS(tess_text_measure_bulk(t, style, bulk, offsets[3], offsets, 3, 40, 0, 1, results, 2), t,
          TESS_ERROR_BUFFER_TOO_SMALL, "results");
    FAILS(tess_text_measure_bulk(t, style, bulk, offsets[3], offsets, 3, 40, 0, 0, results, 3), t,
          TESS_ERROR_INVALID_ARGUMENT, "threads");
    FAILS(tess_text_measure_bulk(t, style, bulk, offsets[3], offsets, -3, 40, 0, 1, results, 3), t,
          TESS_ERROR_INVALID_ARGUMENT, "text_count");
    FAILS(tess_text_measure_bulk(t, style, bulk, offsets[3], NULL, 3, 40, 0, 1, results, 3), t,
          TESS_ERROR_NULL_ARGUMENT, "offsets");
    FAILS(tess_text_measure_bulk(t, style, bulk, offsets[3], offsets, 3, 40, 0, 1, NULL, 3), t,
          TESS_ERROR_NULL_ARGUMENT, "results");
    FAILS(tess_text_measure_bulk(t, style, "ab\xff\xfe", 4, (int64_t[]){0, 2, 4}, 2, 40, 0, 1, results, 3), t,
          TESS_ERROR_INVALID_UTF8, "utf8");
    FAILS(tess_text_measure_bulk(NULL, style, bulk, offsets[3], offsets, 3, 40, 0, 1, results, 3), NULL,
          TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_text_engine_get_statistics(t, NULL), t, TESS_ERROR_NULL_ARGUMENT, "out");
    FAILS(tess_text_engine_get_statistics(NULL, &stats), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_text_engine_clear_caches(NULL), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    tess_cache_budgets bad_budgets = {-1, 0, 0};
    tess_text_engine_t *t2 = NULL;
    FAILS(tess_text_engine_create(&bad_budgets, &t2), NULL, TESS_ERROR_INVALID_ARGUMENT, "segment_bytes");
    tess_cache_budgets huge_budgets = {0, INT64_MAX, 0};
    FAILS(tess_text_engine_create(&huge_budgets, &t2), NULL, TESS_ERROR_INVALID_ARGUMENT, "prepared_text_bytes");
    huge_budgets.prepared_text_bytes = ((int64_t)1 << 30) + 1;
    FAILS(tess_text_engine_create(&huge_budgets, &t2), NULL, TESS_ERROR_INVALID_ARGUMENT, "over 1 GiB");
    FAILS(tess_text_engine_create(NULL, NULL), NULL, TESS_ERROR_NULL_ARGUMENT, "out");
    OK(tess_text_measure(t, style, "Hello", 5, 300, 0, &m), t); /* still usable */
    CHECK(m.line_count == 1);

    /* Uncached, then the host callback replacing the shaper. */
    tess_cache_budgets none = {0, 0, 0};
    OK(tess_text_engine_create(&none, &t2), NULL);
    OK(tess_text_measure(t2, style, "Hello Hello Hello", 17, 40, 0, &m), t2);
    CHECK(m.line_count == 3);
    tess_text_engine_destroy(t2);
    stub_context stub = {0, 0};
    tess_text_engine_t *cb = NULL;
    OK(tess_text_engine_create_with_callback(stub_measure, &stub, 0, NULL, &cb), NULL);
    /* "xx xx xx": segments "xx " (20 + 5 trailing) each; at width 45 two fit ("xx xx" = 45). */
    OK(tess_text_measure(cb, style, "xx xx xx", 8, 45, 0, &m), cb);
    CHECK(m.line_count == 2 && NEAR(m.width, 45));
    OK(tess_text_measure(cb, style, "xx xx xx", 8, 44.9, 0, &m), cb);
    CHECK(m.line_count == 3 && NEAR(m.width, 20));
    OK(tess_text_measure(cb, style, "yyyy", 4, 100, 0, &m), cb);
    CHECK(fabs(m.width - 39.6) <= 1.0 / 64); /* widths are kept in 1/64 pt */
    CHECK(stub.calls > 0);
    int64_t calls = stub.calls;
    OK(tess_text_measure(cb, style, "xx xx xx", 8, 45, 0, &m), cb); /* cached: no new calls */
    CHECK(stub.calls == calls);
    /* A callback returning NaN, a negative or an infinite width fails the call. */
    for (int mode = 1; mode <= 3; mode++) {
        stub.mode = mode;
        FAILS(tess_text_measure(cb, style, "xx Nx", 5, 100, 0, &m), cb, TESS_ERROR_CALLBACK, "measure callback");
        int64_t ns[3] = {0, 2, 5};
        FAILS(tess_text_measure_bulk(cb, style, "xxN x", 5, ns, 2, 100, 0, 2, results, 3), cb, TESS_ERROR_CALLBACK,
              "measure callback");
        stub.mode = 0;
        OK(tess_text_measure(cb, style, "xx Nx", 5, 100, 0, &m), cb); /* nothing bad was cached */
        CHECK(m.line_count == 1 && NEAR(m.width, 45));
        OK(tess_text_engine_clear_caches(cb), cb);
    }
    FAILS(tess_text_engine_create_with_callback(NULL, &stub, 0, NULL, &t2), NULL, TESS_ERROR_NULL_ARGUMENT, "measure");
    FAILS(tess_text_engine_create_with_callback(stub_measure, &stub, 2, NULL, &t2), NULL, TESS_ERROR_INVALID_ARGUMENT,
          "uses_font_fallback");
    FAILS(tess_text_engine_create_with_callback(stub_measure, &stub, 0, &bad_budgets, &t2), NULL,
          TESS_ERROR_INVALID_ARGUMENT, "budgets");
    FAILS(tess_text_engine_create_with_callback(stub_measure, &stub, 0, NULL, NULL), NULL, TESS_ERROR_NULL_ARGUMENT,
          "out");
    tess_text_engine_destroy(cb);
    tess_text_engine_destroy(t);
    tess_text_style_destroy(style);
    tess_text_style_destroy(NULL);
    tess_font_destroy(roboto);
    tess_font_destroy(from_bytes);
    tess_font_destroy(NULL);
    free(bytes);
}

/* ===================================================================================== */
/* Profiles and the cell measurer (Profiles/README.md, example 7)                         */
/* ===================================================================================== */

static int64_t kind_index(tess_profile_t *p, const char *name) {
    int64_t count = 0;
    OK(tess_profile_kind_count(p, &count), p);
    for (int64_t i = 0; i < count; i++) {
        char buffer[128];
        int64_t len = 0;
        OK(tess_profile_kind_name(p, i, buffer, sizeof buffer, &len), p);
        if (len == (int64_t)strlen(name) && memcmp(buffer, name, (size_t)len) == 0) return i;
    }
    return -1;
}

static int64_t slot_position(tess_profile_t *p, int64_t kind, const char *name) {
    tess_kind_info k;
    OK(tess_profile_kind_info(p, kind, &k), p);
    for (int64_t s = 0; s < k.slot_count; s++) {
        char buffer[128];
        int64_t len = 0;
        OK(tess_profile_slot_name(p, kind, s, buffer, sizeof buffer, &len), p);
        if (len == (int64_t)strlen(name) && memcmp(buffer, name, (size_t)len) == 0) return s;
    }
    return -1;
}

/* A row of `kind` from (slot name, value) pairs: slot values at their value indexes. */
typedef struct row_text {
    char utf8[256];
    int64_t offsets[64];
    tess_text_columns columns;
} row_text;

static void make_row(tess_profile_t *p, int64_t kind, const char *const *pairs, int pair_count, row_text *out) {
    tess_kind_info k;
    OK(tess_profile_kind_info(p, kind, &k), p);
    const char *values[64] = {0};
    for (int i = 0; i < pair_count; i++) {
        int64_t s = slot_position(p, kind, pairs[2 * i]);
        tess_slot_info info;
        OK(tess_profile_slot_info(p, kind, s, &info), p);
        CHECK(info.value_index >= 0 && info.value_index < k.value_count);
        values[info.value_index] = pairs[2 * i + 1];
    }
    int64_t at = 0;
    out->offsets[0] = 0;
    for (int v = 0; v < k.value_count; v++) {
        const char *s = values[v] ? values[v] : "";
        memcpy(out->utf8 + at, s, strlen(s));
        at += (int64_t)strlen(s);
        out->offsets[v + 1] = at;
    }
    out->columns.utf8 = out->utf8;
    out->columns.byte_count = at;
    out->columns.offsets = out->offsets;
    out->columns.slots_per_row = k.value_count;
}

static const tess_element_frame *find_slot(const tess_element_frame *frames, int64_t n, int64_t slot) {
    for (int64_t i = 0; i < n; i++)
        if (frames[i].type == TESS_ELEMENT_SLOT && frames[i].slot == slot) return &frames[i];
    return NULL;
}

#define FRAME_IS(f, X, Y, W, H) ((f) && (f)->x == (X) && (f)->y == (Y) && (f)->width == (W) && (f)->height == (H))

static void test_profiles(void) {
    char path[1024];
    snprintf(path, sizeof path, "%s/Profiles/george.json", repo);
    tess_profile_t *george = NULL, *bad = NULL, *from_bytes = NULL;
    OK(tess_profile_load_path(path, (int64_t)strlen(path), NULL, 0, &george), NULL);
    int64_t json_length = 0;
    char *json = read_file(path, &json_length);
    CHECK(json != NULL);
    const char *dirs = "/nowhere:/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF:/usr/share/fonts/truetype/dejavu"
                       ":/usr/share/fonts/truetype/droid:/usr/share/fonts/truetype/noto";
    OK(tess_profile_load_bytes(json, json_length, dirs, (int64_t)strlen(dirs), &from_bytes), NULL);
    char name[64];
    int64_t len = 0;
    OK(tess_profile_get_name(george, name, sizeof name, &len), george);
    CHECK(len == 6 && memcmp(name, "george", 6) == 0);
    FAILS(tess_profile_get_name(george, name, 3, &len), george, TESS_ERROR_BUFFER_TOO_SMALL, "buffer");
    CHECK(len == 6);

    /* Kinds: basicCell has 10 values and estimates 44 (iOS) / 48 (Android). */
    int64_t basic = kind_index(george, "basicCell"), header = kind_index(george, "sectionHeader");
    CHECK(basic >= 0 && header >= 0);
    tess_kind_info k;
    OK(tess_profile_kind_info(george, basic, &k), george);
    CHECK(k.role == TESS_KIND_ROLE_CELL && k.value_count == 10 && k.estimated_height_android == 48);
    OK(tess_profile_kind_info(george, header, &k), george);
    CHECK(k.role == TESS_KIND_ROLE_HEADER);
    int64_t count = 0;
    OK(tess_profile_kind_count(from_bytes, &count), from_bytes);
    int64_t george_count = 0;
    OK(tess_profile_kind_count(george, &george_count), george);
    CHECK(count == george_count && count > 5);
    double heights[512];
    int64_t n = 0;
    OK(tess_profile_estimated_heights(george, TESS_PLATFORM_ANDROID, heights, 512, &n), george);
    OK(tess_profile_kind_info(george, basic, &k), george);
    CHECK(n > k.code && heights[k.code] == 48 && heights[0] == 0);
    FAILS(tess_profile_estimated_heights(george, TESS_PLATFORM_IOS, heights, 1, &n), george,
          TESS_ERROR_BUFFER_TOO_SMALL, "heights");
    FAILS(tess_profile_estimated_heights(george, 2, heights, 512, &n), george, TESS_ERROR_INVALID_ARGUMENT, "platform");
    int64_t label = slot_position(george, basic, "label");
    tess_slot_info slot;
    OK(tess_profile_slot_info(george, basic, label, &slot), george);
    CHECK(slot.type == TESS_SLOT_TEXT && slot.required == 1 && slot.value_index >= 0);

    /* Profile bad input. */
    FAILS(tess_profile_load_path("/nonexistent.json", 17, NULL, 0, &bad), NULL, TESS_ERROR_IO, "nonexistent");
    FAILS(tess_profile_load_path(repo, (int64_t)strlen(repo), NULL, 0, &bad), NULL, TESS_ERROR_IO, "path");
    FAILS(tess_profile_load_path(NULL, 4, NULL, 0, &bad), NULL, TESS_ERROR_NULL_ARGUMENT, "path");
    FAILS(tess_profile_load_path(path, (int64_t)strlen(path), NULL, 0, NULL), NULL, TESS_ERROR_NULL_ARGUMENT, "out");
    FAILS(tess_profile_load_bytes("{", 1, NULL, 0, &bad), NULL, TESS_ERROR_INVALID_PROFILE, "json");
    FAILS(tess_profile_load_bytes("[]", 2, NULL, 0, &bad), NULL, TESS_ERROR_INVALID_PROFILE, "json");
    FAILS(tess_profile_load_bytes("{\"name\": 3}", 11, NULL, 0, &bad), NULL, TESS_ERROR_INVALID_PROFILE, "json");
    FAILS(tess_profile_load_bytes("\xff\xfe{}", 4, NULL, 0, &bad), NULL, TESS_ERROR_INVALID_PROFILE, "json");
    FAILS(tess_profile_load_bytes(json, json_length / 2, NULL, 0, &bad), NULL, TESS_ERROR_INVALID_PROFILE, "json");
    FAILS(tess_profile_load_bytes(json, json_length, "/nowhere", 8, &bad), NULL, TESS_ERROR_INVALID_PROFILE,
          "not found");
    FAILS(tess_profile_load_bytes(json, json_length, "\xff", 1, &bad), NULL, TESS_ERROR_INVALID_UTF8, "font_dirs");
    FAILS(tess_profile_load_bytes(NULL, 10, NULL, 0, &bad), NULL, TESS_ERROR_NULL_ARGUMENT, "json");
    FAILS(tess_profile_load_bytes(json, -1, NULL, 0, &bad), NULL, TESS_ERROR_INVALID_ARGUMENT, "byte_count");
    CHECK(bad == NULL);
    FAILS(tess_profile_kind_info(george, -1, &k), george, TESS_ERROR_OUT_OF_RANGE, "index -1");
    FAILS(tess_profile_kind_info(george, george_count, &k), george, TESS_ERROR_OUT_OF_RANGE, "index");
    FAILS(tess_profile_kind_info(george, 0, NULL), george, TESS_ERROR_NULL_ARGUMENT, "out");
    FAILS(tess_profile_kind_name(george, 999, name, 64, &len), george, TESS_ERROR_OUT_OF_RANGE, "index 999");
    FAILS(tess_profile_kind_name(george, 0, NULL, 64, &len), george, TESS_ERROR_NULL_ARGUMENT, "buffer");
    FAILS(tess_profile_slot_info(george, basic, 99, &slot), george, TESS_ERROR_OUT_OF_RANGE, "slot 99");
    FAILS(tess_profile_slot_info(george, basic, -1, &slot), george, TESS_ERROR_OUT_OF_RANGE, "slot -1");
    FAILS(tess_profile_slot_name(george, basic, 99, name, 64, &len), george, TESS_ERROR_OUT_OF_RANGE, "slot 99");
    FAILS(tess_profile_kind_count(george, NULL), george, TESS_ERROR_NULL_ARGUMENT, "count");
    FAILS(tess_profile_kind_count(NULL, &count), NULL, TESS_ERROR_NULL_ARGUMENT, "profile");
    FAILS(tess_profile_get_name(NULL, name, 64, &len), NULL, TESS_ERROR_NULL_ARGUMENT, "profile");
    FAILS(tess_profile_kind_info(NULL, 0, &k), NULL, TESS_ERROR_NULL_ARGUMENT, "profile");
    FAILS(tess_profile_kind_name(NULL, 0, name, 64, &len), NULL, TESS_ERROR_NULL_ARGUMENT, "profile");
    FAILS(tess_profile_slot_info(NULL, 0, 0, &slot), NULL, TESS_ERROR_NULL_ARGUMENT, "profile");
    FAILS(tess_profile_slot_name(NULL, 0, 0, name, 64, &len), NULL, TESS_ERROR_NULL_ARGUMENT, "profile");
    FAILS(tess_profile_estimated_heights(NULL, 0, heights, 512, &n), NULL, TESS_ERROR_NULL_ARGUMENT, "profile");

    /* Fonts the host holds as bytes serve the profile's files; nothing is looked up. */
    {
        const char *files[] = {"Roboto-Regular.ttf", "Roboto-Medium.ttf", "DroidSansFallbackFull.ttf", "NotoColorEmoji.ttf"};
        const char *paths[] = {"/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf",
                               "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Medium.ttf",
                               "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
                               "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"};
        tess_font_t *fonts[4] = {NULL, NULL, NULL, NULL};
        int64_t lengths[4];
        for (int i = 0; i < 4; i++) {
            int64_t size = 0;
            char *bytes = read_file(paths[i], &size);
            CHECK(bytes != NULL);
            OK(tess_font_load_bytes(bytes, size, 0, &fonts[i]), NULL);
            free(bytes);
            lengths[i] = (int64_t)strlen(files[i]);
        }
        const tess_font_t *given[4] = {fonts[0], fonts[1], fonts[2], fonts[3]};
        tess_profile_t *hosted = NULL;
        OK(tess_profile_load_bytes_with_fonts(json, json_length, files, lengths, given, 4, "/nowhere", 8, &hosted), NULL);
        /* The profile keeps what it needs: a second set of handles, destroyed at once, serves it too. */
        tess_profile_t *kept = NULL;
        {
            tess_font_t *copies[4] = {NULL, NULL, NULL, NULL};
            for (int i = 0; i < 4; i++) {
                int64_t size = 0;
                char *bytes = read_file(paths[i], &size);
                OK(tess_font_load_bytes(bytes, size, 0, &copies[i]), NULL);
                free(bytes);
            }
            const tess_font_t *c[4] = {copies[0], copies[1], copies[2], copies[3]};
            OK(tess_profile_load_bytes_with_fonts(json, json_length, files, lengths, c, 4, "/nowhere", 8, &kept), NULL);
            for (int i = 0; i < 4; i++) tess_font_destroy(copies[i]);
        }
        int64_t hosted_count = 0;
        OK(tess_profile_kind_count(hosted, &hosted_count), hosted);
        CHECK(hosted_count == george_count);
        /* Same cell, same height as with the files found on disk (built-in shaper). */
        const char *cell[] = {"label", "Überweisung an Greda Köhuber, Verwendungszweck: Zahlungsbericht RF57", "subLine", "x"};
        row_text one;
        make_row(george, basic, cell, 2, &one);
        tess_environment narrow = {200, TESS_PLATFORM_ANDROID, 0, 1};
        tess_measurer_t *on_disk = NULL, *on_bytes = NULL;
        OK(tess_measurer_create(george, &narrow, NULL, &on_disk), NULL);
        OK(tess_measurer_create(kept, &narrow, NULL, &on_bytes), NULL);
        tess_profile_destroy(kept);
        double h1 = 0, h2 = -1;
        OK(tess_profile_kind_info(george, basic, &k), george);
        OK(tess_measurer_heights(on_disk, &k.code, 1, &one.columns, &h1, 1), on_disk);
        OK(tess_measurer_heights(on_bytes, &k.code, 1, &one.columns, &h2, 1), on_bytes);
        CHECK(h1 == h2 && h1 > 48);
        tess_measurer_destroy(on_disk);
        tess_measurer_destroy(on_bytes);
        tess_profile_destroy(hosted);
        /* A file given neither as a font nor in a directory; bad arrays. */
        FAILS(tess_profile_load_bytes_with_fonts(json, json_length, files, lengths, given, 0, "/nowhere", 8, &bad), NULL,
              TESS_ERROR_INVALID_PROFILE, "not found");
        FAILS(tess_profile_load_bytes_with_fonts(json, json_length, NULL, lengths, given, 4, NULL, 0, &bad), NULL,
              TESS_ERROR_NULL_ARGUMENT, "file_names");
        const tess_font_t *holes[4] = {given[0], NULL, given[2], given[3]};
        FAILS(tess_profile_load_bytes_with_fonts(json, json_length, files, lengths, holes, 4, NULL, 0, &bad), NULL,
              TESS_ERROR_NULL_ARGUMENT, "fonts[1]");
        const char *twice[] = {files[0], files[0]};
        const int64_t twice_lengths[] = {lengths[0], lengths[0]};
        FAILS(tess_profile_load_bytes_with_fonts(json, json_length, twice, twice_lengths, given, 2, NULL, 0, &bad), NULL,
              TESS_ERROR_INVALID_ARGUMENT, "twice");
        FAILS(tess_profile_load_bytes_with_fonts(json, json_length, files, lengths, given, -1, NULL, 0, &bad), NULL,
              TESS_ERROR_INVALID_ARGUMENT, "font_count");
        CHECK(bad == NULL);
        for (int i = 0; i < 4; i++) tess_font_destroy(fonts[i]);
    }

    /* The measurer with the README's stub text: example 7, iOS then Android. */
    stub_context stub = {0, 0};
    tess_text_engine_t *text = NULL;
    OK(tess_text_engine_create_with_callback(stub_measure, &stub, 0, NULL, &text), NULL);
    tess_environment ios = {375, TESS_PLATFORM_IOS, 0, 1};
    tess_measurer_t *m = NULL, *bad_m = NULL;
    OK(tess_measurer_create(george, &ios, text, &m), NULL);
    tess_text_engine_destroy(text); /* the measurer keeps its own reference */
    tess_profile_destroy(from_bytes);
    const char *full[] = {"leadingIcon", "1", "label", "a\na", "subLine", "x", "chevron", "1"};
    row_text row;
    make_row(george, basic, full, 4, &row);
    OK(tess_profile_kind_info(george, basic, &k), george);
    OK(tess_measurer_validate(m, k.code, &row.columns, 0), m);
    double h = 0;
    OK(tess_measurer_heights(m, &k.code, 1, &row.columns, &h, 1), m);
    CHECK(h == 82);
    tess_element_frame frames[32];
    double cw = 0, ch = 0;
    OK(tess_measurer_frames(m, k.code, &row.columns, frames, 32, &n, &cw, &ch), m);
    CHECK(cw == 375 && ch == 82);
    CHECK(FRAME_IS(find_slot(frames, n, slot_position(george, basic, "leadingIcon")), 16, 29, 24, 24));
    CHECK(FRAME_IS(find_slot(frames, n, label), 56, 8, 279, 44));
    CHECK(FRAME_IS(find_slot(frames, n, slot_position(george, basic, "subLine")), 56, 54, 279, 20));
    CHECK(FRAME_IS(find_slot(frames, n, slot_position(george, basic, "chevron")), 351, 34.5, 8, 13));
    CHECK(n > 0 && frames[n - 1].type == TESS_ELEMENT_DIVIDER && FRAME_IS(&frames[n - 1], 56, 82, 319, 0));
    const tess_element_frame *label_frame = find_slot(frames, n, label);
    CHECK(label_frame && label_frame[1].type == TESS_ELEMENT_TEXT && label_frame[1].line_count == 2 &&
          label_frame[1].byte_start == 0 && label_frame[1].byte_end == 3);
    FAILS(tess_measurer_frames(m, k.code, &row.columns, frames, 2, &n, &cw, &ch), m, TESS_ERROR_BUFFER_TOO_SMALL,
          "frames");
    CHECK(n > 2);
    char wc[32];
    OK(tess_measurer_width_class(m, wc, sizeof wc, &len), m);
    CHECK(len > 0);
    tess_environment android = {360, TESS_PLATFORM_ANDROID, 0, 1}, got;
    OK(tess_measurer_set_environment(m, &android), m);
    OK(tess_measurer_get_environment(m, &got), m);
    CHECK(got.width == 360 && got.platform == TESS_PLATFORM_ANDROID && got.edit_mode == 0 && got.font_scale == 1);
    OK(tess_measurer_heights(m, &k.code, 1, &row.columns, &h, 1), m);
    CHECK(h == 86);
    OK(tess_measurer_frames(m, k.code, &row.columns, frames, 32, &n, NULL, NULL), m);
    CHECK(FRAME_IS(find_slot(frames, n, label), 56, 8, 288, 48));
    CHECK(find_slot(frames, n, slot_position(george, basic, "chevron")) == NULL); /* hidden on Android */

    /* Bulk heights: examples 6 and 7 on Android (48 and 86). */
    const char *one_line[] = {"label", "x"};
    row_text single;
    make_row(george, basic, one_line, 1, &single);
    char bulk_utf8[512];
    int64_t bulk_offsets[21];
    memcpy(bulk_utf8, single.utf8, (size_t)single.columns.byte_count);
    memcpy(bulk_utf8 + single.columns.byte_count, row.utf8, (size_t)row.columns.byte_count);
    for (int i = 0; i <= 10; i++) bulk_offsets[i] = single.offsets[i];
    for (int i = 1; i <= 10; i++) bulk_offsets[10 + i] = single.columns.byte_count + row.offsets[i];
    tess_text_columns two = {bulk_utf8, single.columns.byte_count + row.columns.byte_count, bulk_offsets, 10};
    uint16_t codes[2] = {k.code, k.code};
    double hs[2] = {0, 0};
    OK(tess_measurer_heights(m, codes, 2, &two, hs, 2), m);
    CHECK(hs[0] == 48 && hs[1] == 86);

    /* Measurer bad input; a failure changes nothing. */
    tess_environment bad_env = {NAN, TESS_PLATFORM_IOS, 0, 1};
    FAILS(tess_measurer_set_environment(m, &bad_env), m, TESS_ERROR_INVALID_ENVIRONMENT, "width");
    bad_env.width = -1;
    FAILS(tess_measurer_set_environment(m, &bad_env), m, TESS_ERROR_INVALID_ENVIRONMENT, "width");
    bad_env.width = 375;
    bad_env.font_scale = INFINITY;
    FAILS(tess_measurer_set_environment(m, &bad_env), m, TESS_ERROR_INVALID_ENVIRONMENT, "fontScale");
    bad_env.font_scale = 1;
    bad_env.platform = 7;
    FAILS(tess_measurer_set_environment(m, &bad_env), m, TESS_ERROR_INVALID_ARGUMENT, "environment.platform");
    bad_env.platform = TESS_PLATFORM_IOS;
    bad_env.edit_mode = 5;
    FAILS(tess_measurer_set_environment(m, &bad_env), m, TESS_ERROR_INVALID_ARGUMENT, "edit_mode");
    FAILS(tess_measurer_set_environment(m, NULL), m, TESS_ERROR_NULL_ARGUMENT, "environment");
    FAILS(tess_measurer_set_parameter(m, "noSuchParameter", 15, 3), m, TESS_ERROR_INVALID_ENVIRONMENT,
          "noSuchParameter");
    FAILS(tess_measurer_set_parameter(m, NULL, 3, 3), m, TESS_ERROR_NULL_ARGUMENT, "name");
    FAILS(tess_measurer_set_parameter(m, "\xff", 1, 3), m, TESS_ERROR_INVALID_UTF8, "name");
    OK(tess_measurer_get_environment(m, &got), m);
    CHECK(got.width == 360 && got.platform == TESS_PLATFORM_ANDROID);
    FAILS(tess_measurer_validate(m, 9999, &row.columns, 4), m, TESS_ERROR_UNKNOWN_KIND, "9999");
    const char *no_label[] = {"subLine", "x"};
    row_text missing;
    make_row(george, basic, no_label, 1, &missing);
    FAILS(tess_measurer_validate(m, k.code, &missing.columns, 7), m, TESS_ERROR_RULE_VIOLATION, "row 7");
    FAILS(tess_measurer_heights(m, &k.code, 1, &missing.columns, &h, 1), m, TESS_ERROR_RULE_VIOLATION, "label");
    row_text broken = row;
    broken.columns.utf8 = broken.utf8;
    broken.columns.offsets = broken.offsets;
    broken.offsets[3] = 500;
    FAILS(tess_measurer_validate(m, k.code, &broken.columns, 0), m, TESS_ERROR_INVALID_TEXT_OFFSETS, "text");
    broken = row;
    broken.columns.utf8 = broken.utf8;
    broken.columns.offsets = broken.offsets;
    broken.offsets[2] = broken.offsets[1] - 1;
    FAILS(tess_measurer_heights(m, &k.code, 1, &broken.columns, &h, 1), m, TESS_ERROR_INVALID_TEXT_OFFSETS, "text");
    broken = row;
    broken.columns.offsets = broken.offsets;
    int64_t label_value = 0;
    OK(tess_profile_slot_info(george, basic, label, &slot), george);
    label_value = slot.value_index;
    broken.utf8[broken.offsets[label_value]] = (char)0xc3; /* a lead byte followed by '\n' */
    broken.columns.utf8 = broken.utf8;
    FAILS(tess_measurer_validate(m, k.code, &broken.columns, 0), m, TESS_ERROR_INVALID_UTF8, "UTF-8");
    FAILS(tess_measurer_frames(m, k.code, &broken.columns, frames, 32, &n, NULL, NULL), m, TESS_ERROR_INVALID_UTF8,
          "UTF-8");
    FAILS(tess_measurer_heights(m, &k.code, 1, &row.columns, &h, 0), m, TESS_ERROR_BUFFER_TOO_SMALL, "heights");
    FAILS(tess_measurer_heights(m, &k.code, -1, &row.columns, &h, 1), m, TESS_ERROR_INVALID_ARGUMENT, "row_count");
    FAILS(tess_measurer_heights(m, NULL, 1, &row.columns, &h, 1), m, TESS_ERROR_NULL_ARGUMENT, "kinds");
    FAILS(tess_measurer_heights(m, &k.code, 1, NULL, &h, 1), m, TESS_ERROR_NULL_ARGUMENT, "text");
    FAILS(tess_measurer_heights(m, &k.code, 1, &row.columns, NULL, 1), m, TESS_ERROR_NULL_ARGUMENT, "heights");
    FAILS(tess_measurer_frames(m, k.code, NULL, frames, 32, &n, NULL, NULL), m, TESS_ERROR_NULL_ARGUMENT, "text");
    FAILS(tess_measurer_frames(m, k.code, &row.columns, frames, 32, NULL, NULL, NULL), m, TESS_ERROR_NULL_ARGUMENT,
          "count");
    FAILS(tess_measurer_frames(m, k.code, &row.columns, NULL, 32, &n, NULL, NULL), m, TESS_ERROR_NULL_ARGUMENT,
          "frames");
    FAILS(tess_measurer_width_class(m, NULL, 5, &len), m, TESS_ERROR_NULL_ARGUMENT, "buffer");
    FAILS(tess_measurer_get_environment(m, NULL), m, TESS_ERROR_NULL_ARGUMENT, "out");
    FAILS(tess_measurer_validate(m, k.code, NULL, 0), m, TESS_ERROR_NULL_ARGUMENT, "text");
    FAILS(tess_measurer_validate(NULL, k.code, &row.columns, 0), NULL, TESS_ERROR_NULL_ARGUMENT, "measurer");
    FAILS(tess_measurer_heights(NULL, &k.code, 1, &row.columns, &h, 1), NULL, TESS_ERROR_NULL_ARGUMENT, "measurer");
    FAILS(tess_measurer_frames(NULL, k.code, &row.columns, frames, 32, &n, NULL, NULL), NULL, TESS_ERROR_NULL_ARGUMENT,
          "measurer");
    FAILS(tess_measurer_set_environment(NULL, &ios), NULL, TESS_ERROR_NULL_ARGUMENT, "measurer");
    FAILS(tess_measurer_set_parameter(NULL, "a", 1, 1), NULL, TESS_ERROR_NULL_ARGUMENT, "measurer");
    FAILS(tess_measurer_get_environment(NULL, &got), NULL, TESS_ERROR_NULL_ARGUMENT, "measurer");
    FAILS(tess_measurer_width_class(NULL, wc, 32, &len), NULL, TESS_ERROR_NULL_ARGUMENT, "measurer");
    FAILS(tess_measurer_create(NULL, &ios, NULL, &bad_m), NULL, TESS_ERROR_NULL_ARGUMENT, "profile");
    FAILS(tess_measurer_create(george, NULL, NULL, &bad_m), NULL, TESS_ERROR_NULL_ARGUMENT, "environment");
    FAILS(tess_measurer_create(george, &ios, NULL, NULL), NULL, TESS_ERROR_NULL_ARGUMENT, "out");
    tess_environment wide = {2e6, TESS_PLATFORM_IOS, 0, 1};
    FAILS(tess_measurer_create(george, &wide, NULL, &bad_m), NULL, TESS_ERROR_INVALID_ENVIRONMENT, "width");
    CHECK(bad_m == NULL);
    /* Still usable, still Android. */
    OK(tess_measurer_heights(m, &k.code, 1, &row.columns, &h, 1), m);
    CHECK(h == 86);
    /* Edit mode on iOS: example 7's height is unchanged by the selection control. */
    tess_environment edit = {375, TESS_PLATFORM_IOS, 1, 1};
    OK(tess_measurer_set_environment(m, &edit), m);
    OK(tess_measurer_heights(m, &k.code, 1, &row.columns, &h, 1), m);
    CHECK(h >= 82);
    /* A callback returning NaN while measuring a row. */
    stub.mode = 1;
    const char *nan_label[] = {"label", "N"};
    row_text nan_row;
    make_row(george, basic, nan_label, 1, &nan_row);
    FAILS(tess_measurer_heights(m, &k.code, 1, &nan_row.columns, &h, 1), m, TESS_ERROR_CALLBACK, "measure callback");
    stub.mode = 0;
    OK(tess_measurer_heights(m, &k.code, 1, &nan_row.columns, &h, 1), m);
    CHECK(h == 44);
    tess_measurer_destroy(m);
    tess_measurer_destroy(NULL);

    /* A measurer with its own built-in engine (real fonts). */
    OK(tess_measurer_create(george, &ios, NULL, &m), NULL);
    OK(tess_measurer_heights(m, &k.code, 1, &single.columns, &h, 1), m);
    CHECK(h == 44); /* one line: the minimum height */
    tess_measurer_destroy(m);
    tess_profile_destroy(george);
    tess_profile_destroy(NULL);
    free(json);
}

/* ===================================================================================== */
/* Profile-driven engine, snapshots, swipe / selection / unread (ABI version 2)           */
/* ===================================================================================== */

/* George rows in columns of 10 values (basicCell's count; shorter kinds leave the rest
 * empty). */
#define PE_SLOTS 10
typedef struct pe_rows {
    int64_t count, capacity, bytes, byte_capacity;
    uint64_t *ids, *versions;
    uint16_t *kinds;
    uint8_t *unread;
    char *utf8;
    int64_t *offsets;
} pe_rows;

static void pe_add(pe_rows *r, uint64_t id, uint16_t kind, uint64_t version, const char *const values[PE_SLOTS]) {
    if (r->count + 1 > r->capacity) {
        r->capacity = r->capacity ? r->capacity * 2 : 64;
        r->ids = realloc(r->ids, sizeof(uint64_t) * (size_t)r->capacity);
        r->versions = realloc(r->versions, sizeof(uint64_t) * (size_t)r->capacity);
        r->kinds = realloc(r->kinds, sizeof(uint16_t) * (size_t)r->capacity);
        r->unread = realloc(r->unread, (size_t)r->capacity);
        r->offsets = realloc(r->offsets, sizeof(int64_t) * (size_t)(r->capacity * PE_SLOTS + 1));
    }
    if (r->count == 0) r->offsets[0] = 0;
    for (int s = 0; s < PE_SLOTS; s++) {
        const char *v = values[s] ? values[s] : "";
        int64_t n = (int64_t)strlen(v);
        if (r->bytes + n > r->byte_capacity) {
            r->byte_capacity = (r->bytes + n) * 2 + 256;
            r->utf8 = realloc(r->utf8, (size_t)r->byte_capacity);
        }
        memcpy(r->utf8 + r->bytes, v, (size_t)n);
        r->bytes += n;
        r->offsets[r->count * PE_SLOTS + s + 1] = r->bytes;
    }
    r->ids[r->count] = id;
    r->versions[r->count] = version;
    r->kinds[r->count] = kind;
    r->unread[r->count] = 0;
    r->count++;
}

static tess_text_columns pe_text(const pe_rows *r) {
    tess_text_columns t = {r->utf8, r->bytes, r->offsets, PE_SLOTS};
    return t;
}

static tess_snapshot pe_snapshot(const pe_rows *r, const tess_text_columns *text) {
    tess_snapshot s = {r->ids, r->kinds, r->versions, r->count, text, NULL, r->unread};
    return s;
}

static void pe_free(pe_rows *r) {
    free(r->ids);
    free(r->versions);
    free(r->kinds);
    free(r->unread);
    free(r->utf8);
    free(r->offsets);
    memset(r, 0, sizeof *r);
}

/* Kind codes of george.json used here. */
static uint16_t pe_basic, pe_header, pe_single, pe_multi;

/* Row `i` of group `g`: row 0 the sticky section header, then cells. Group 1 holds two
 * single-selection and two multi-selection rows; every third basic cell is Profiles/README's
 * example 7 (82 pt on iOS, 86 on Android with the stub), the others example 6 (44 / 48). */
static void pe_group(pe_rows *r, uint64_t first_id, int g, int rows_per_group, uint64_t version) {
    static char titles[64][16];
    snprintf(titles[g % 64], sizeof titles[0], "Group %d", g);
    const char *header[PE_SLOTS] = {0};
    header[3] = titles[g % 64];
    header[4] = "-12.40 EUR";
    pe_add(r, first_id, pe_header, version, header);
    for (int i = 1; i < rows_per_group; i++) {
        const char *v[PE_SLOTS] = {0};
        uint16_t kind = pe_basic;
        if (g == 1 && i <= 2) {
            kind = pe_single;
            v[0] = i == 1 ? "One" : "Two";
        } else if (g == 1 && i <= 4) {
            kind = pe_multi;
            v[0] = "Many";
        } else if (i % 3 == 0) {
            /* leadingIcon, label, subLine, chevron of example 7 at their value indexes */
            v[0] = "1";
            v[2] = "a\na";
            v[3] = "x";
            v[9] = "1";
        } else {
            v[2] = "x"; /* the label */
        }
        pe_add(r, first_id + (uint64_t)i, kind, version, v);
    }
}

typedef struct pe_state {
    snapshot s;
    int64_t dirty;
    tess_environment env;
    uint64_t versions;
} pe_state;

static pe_state pe_take(tess_engine_t *e) {
    pe_state p;
    memset(&p, 0, sizeof p);
    p.s = take_snapshot(e);
    OK(tess_engine_dirty_count(e, &p.dirty), e);
    OK(tess_engine_get_environment(e, &p.env), e);
    p.versions = 7;
    for (int64_t i = 0; i < p.s.count; i++) {
        uint64_t v = 0;
        OK(tess_engine_row_version(e, i, &v), e);
        p.versions = (p.versions ^ v ^ (uint64_t)i) * 1099511628211ull;
    }
    return p;
}

static int pe_same(pe_state a, pe_state b) {
    return same_snapshot(a.s, b.s) && a.dirty == b.dirty && a.versions == b.versions && a.env.width == b.env.width &&
           a.env.platform == b.env.platform && a.env.edit_mode == b.env.edit_mode && a.env.font_scale == b.env.font_scale;
}

/* Heights of the rows through the cell measurer (the other API) in `env`, with its own
 * stub text engine. */
static double *pe_expected(tess_profile_t *george, const tess_environment *env, const pe_rows *r) {
    stub_context stub = {0, 0};
    tess_text_engine_t *text = NULL;
    tess_measurer_t *m = NULL;
    OK(tess_text_engine_create_with_callback(stub_measure, &stub, 0, NULL, &text), NULL);
    OK(tess_measurer_create(george, env, text, &m), NULL);
    tess_text_engine_destroy(text);
    double *h = malloc(sizeof(double) * (size_t)(r->count + 1));
    tess_text_columns t = pe_text(r);
    OK(tess_measurer_heights(m, r->kinds, r->count, &t, h, r->count), m);
    tess_measurer_destroy(m);
    return h;
}

/* The engine's rows are `r` (ids, kinds, versions) with heights `h` (NULL: not checked),
 * every row measured, offsets their prefix sums. */
static void pe_check_rows(tess_engine_t *e, const pe_rows *r, const double *h) {
    int64_t n = -1;
    OK(tess_engine_row_count(e, &n), e);
    CHECK(n == r->count);
    double y = 0;
    int bad = 0;
    for (int64_t i = 0; i < r->count && i < n; i++) {
        tess_row_info info;
        uint64_t v = 0;
        double top = -1;
        OK(tess_engine_get_row(e, i, &info), e);
        OK(tess_engine_row_version(e, i, &v), e);
        OK(tess_engine_offset_of_row(e, i, &top), e);
        if (info.id != r->ids[i] || info.kind != r->kinds[i] || v != r->versions[i] || top != y) bad++;
        if (h && (info.height != h[i] || !(info.flags & TESS_ROW_MEASURED) || (info.flags & TESS_ROW_DIRTY))) bad++;
        y += info.height;
    }
    CHECK(bad == 0);
    double total = -1;
    OK(tess_engine_total_height(e, &total), e);
    CHECK(total == y);
}

/* The item window against the store rows, prefix sums, dividers and the sticky header. */
static void pe_check_items(tess_engine_t *e, const pe_rows *r, double width) {
    tess_visible_item items[256], sticky;
    tess_visible_row rows[256];
    int64_t n = 0, m = 0;
    int32_t has = -1;
    double scroll = 0, overscan = 0;
    OK(tess_engine_get_scroll_offset(e, &scroll), e);
    OK(tess_engine_get_overscan(e, &overscan), e);
    OK(tess_engine_items(e, items, 256, &n, &sticky, &has), e);
    OK(tess_engine_window(e, overscan, rows, 256, &m), e);
    CHECK(n == m && n > 0);
    int bad = 0;
    for (int64_t i = 0; i < n && i < m; i++) {
        if (items[i].row != rows[i].row || items[i].id != rows[i].id || items[i].y != rows[i].y ||
            items[i].height != rows[i].height || items[i].kind != rows[i].kind || items[i].x != 0 ||
            items[i].width != width || (items[i].flags & ~TESS_ROW_DIVIDER) != rows[i].flags)
            bad++;
        /* A cell draws its divider (George: iOS only) when the next row is a cell too. */
        int64_t row = items[i].row;
        int cell = r->kinds[row] != pe_header;
        int next_cell = row + 1 < r->count && r->kinds[row + 1] != pe_header;
        tess_environment env;
        OK(tess_engine_get_environment(e, &env), e);
        int want = env.platform == TESS_PLATFORM_IOS && cell && next_cell;
        if (!!(items[i].flags & TESS_ROW_DIVIDER) != want) bad++;
    }
    CHECK(bad == 0);
    /* The sticky header: the header of the group under the top, pinned at the top or
     * pushed up by the group's end. */
    int64_t top_row = -1;
    double in_row = 0;
    OK(tess_engine_row_at_offset(e, scroll, &top_row, &in_row), e);
    int64_t h = top_row;
    while (h > 0 && r->kinds[h] != pe_header) h--;
    CHECK(has == 1 && sticky.row == h && sticky.id == r->ids[h] && sticky.kind == pe_header);
    int64_t end = h + 1;
    while (end < r->count && r->kinds[end] != pe_header) end++;
    double end_y = 0, header_height = 0;
    if (end < r->count) {
        OK(tess_engine_offset_of_row(e, end, &end_y), e);
    } else {
        OK(tess_engine_total_height(e, &end_y), e);
    }
    tess_row_info hi;
    OK(tess_engine_get_row(e, h, &hi), e);
    header_height = hi.height;
    double pinned = scroll < end_y - header_height ? scroll : end_y - header_height;
    CHECK(sticky.y == pinned && sticky.height == header_height && sticky.width == width);
    /* Too small a buffer reports the count needed; the engine is unchanged. */
    int64_t needed = 0;
    FAILS(tess_engine_items(e, items, n - 1, &needed, NULL, NULL), e, TESS_ERROR_BUFFER_TOO_SMALL, "items");
    CHECK(needed == n);
    FAILS(tess_engine_items(e, NULL, 0, &needed, NULL, NULL), e, TESS_ERROR_BUFFER_TOO_SMALL, "items");
    CHECK(needed == n);
}

static int64_t pe_row_of(tess_engine_t *e, uint64_t id) {
    int64_t row = -1;
    OK(tess_engine_index_of(e, id, &row), e);
    return row;
}

static uint16_t pe_flags(tess_engine_t *e, int64_t row) {
    tess_row_info info;
    memset(&info, 0, sizeof info);
    OK(tess_engine_get_row(e, row, &info), e);
    return info.flags;
}

/* The engine's batch equals the differ's on the same ids and versions (the kinds do not
 * change here), and both forms re-apply the old list to the new one. */
static void pe_check_batch(tess_batch_t *b, const pe_rows *old_rows, const pe_rows *new_rows) {
    tess_differ_t *d = NULL;
    OK(tess_differ_create(&d), NULL);
    OK(tess_differ_diff(d, old_rows->ids, old_rows->versions, old_rows->count, new_rows->ids, new_rows->versions,
                        new_rows->count, NULL),
       d);
    check_batch(d, old_rows->ids, old_rows->count, new_rows->ids, new_rows->count);
    check_operations(d, old_rows->ids, old_rows->count, new_rows->ids, new_rows->count);
    tess_diff_counts cb, cd;
    OK(tess_batch_get_counts(b, &cb), b);
    OK(tess_differ_get_counts(d, &cd), d);
    CHECK(memcmp(&cb, &cd, sizeof cb) == 0);
    int64_t *xb = malloc(sizeof(int64_t) * (size_t)(new_rows->count + old_rows->count + 1));
    int64_t *xd = malloc(sizeof(int64_t) * (size_t)(new_rows->count + old_rows->count + 1));
    for (int32_t which = TESS_DIFF_DELETES; which <= TESS_DIFF_UPDATED_NEW_INDEXES; which++) {
        int64_t nb = -1, nd = -2;
        OK(tess_batch_indexes(b, which, xb, new_rows->count + old_rows->count, &nb), b);
        OK(tess_differ_indexes(d, which, xd, new_rows->count + old_rows->count, &nd), d);
        CHECK(nb == nd && memcmp(xb, xd, sizeof(int64_t) * (size_t)nb) == 0);
    }
    tess_diff_move mb[512], md[512];
    int64_t nb = -1, nd = -2;
    OK(tess_batch_moves(b, mb, 512, &nb), b);
    OK(tess_differ_moves(d, md, 512, &nd), d);
    CHECK(nb == nd && memcmp(mb, md, sizeof(tess_diff_move) * (size_t)nb) == 0);
    tess_diff_operation ob[1024], od[1024];
    OK(tess_batch_operations(b, ob, 1024, &nb), b);
    OK(tess_differ_operations(d, od, 1024, &nd), d);
    CHECK(nb == nd && memcmp(ob, od, sizeof(tess_diff_operation) * (size_t)nb) == 0);
    if (cb.operations > 0) {
        FAILS(tess_batch_operations(b, ob, cb.operations - 1, &nb), b, TESS_ERROR_BUFFER_TOO_SMALL, "operations");
        CHECK(nb == cb.operations);
    }
    free(xb);
    free(xd);
    tess_differ_destroy(d);
}

static void test_profile_engine(void) {
    char path[1024];
    snprintf(path, sizeof path, "%s/Profiles/george.json", repo);
    tess_profile_t *george = NULL;
    OK(tess_profile_load_path(path, (int64_t)strlen(path), NULL, 0, &george), NULL);
    tess_kind_info k;
    OK(tess_profile_kind_info(george, kind_index(george, "basicCell"), &k), george);
    pe_basic = k.code;
    OK(tess_profile_kind_info(george, kind_index(george, "sectionHeader"), &k), george);
    pe_header = k.code;
    CHECK(k.sticky == 1);
    OK(tess_profile_kind_info(george, kind_index(george, "singleSelectionLeading"), &k), george);
    pe_single = k.code;
    OK(tess_profile_kind_info(george, kind_index(george, "multiSelectionLeading"), &k), george);
    pe_multi = k.code;

    stub_context stub = {0, 0};
    tess_text_engine_t *text = NULL;
    OK(tess_text_engine_create_with_callback(stub_measure, &stub, 0, NULL, &text), NULL);
    tess_environment ios = {375, TESS_PLATFORM_IOS, 0, 1};
    tess_engine_t *e = NULL, *bad = NULL;
    OK(tess_engine_create_with_profile(george, &ios, NULL, 600, 100, text, &e), NULL);
    tess_text_engine_destroy(text); /* the engine keeps its own reference */
    int32_t has = -1;
    OK(tess_engine_has_profile(e, &has), e);
    CHECK(has == 1);

    /* 100 groups of 20 rows in one call, all dirty at their estimates. */
    enum { GROUPS = 100, PER = 20 };
    pe_rows rows = {0};
    for (int g = 0; g < GROUPS; g++) pe_group(&rows, 1000 + (uint64_t)g * 100, g, PER, 1);
    tess_text_columns t = pe_text(&rows);
    double y = -1;
    OK(tess_engine_append_rows(e, rows.ids, rows.kinds, rows.versions, rows.count, &t, &y), e);
    CHECK(y == 0);
    int64_t dirty = -1;
    OK(tess_engine_dirty_count(e, &dirty), e);
    CHECK(dirty == GROUPS * PER);
    double total = 0, estimated = 0;
    for (int64_t i = 0; i < rows.count; i++) {
        tess_kind_info ki;
        OK(tess_profile_kind_info(george, kind_index(george, rows.kinds[i] == pe_header ? "sectionHeader"
                                                          : rows.kinds[i] == pe_basic ? "basicCell"
                                                          : rows.kinds[i] == pe_single ? "singleSelectionLeading"
                                                                                       : "multiSelectionLeading"),
                                  &ki),
           george);
        estimated += ki.estimated_height_ios;
    }
    OK(tess_engine_total_height(e, &total), e);
    CHECK(total == estimated);
    CHECK(pe_flags(e, 0) & TESS_ROW_DIRTY);

    /* A budget of 10 rows measures the visible rows first (top down). */
    tess_measure_progress p;
    OK(tess_engine_measure(e, TESS_BUDGET_ROWS, 10, &p), e);
    CHECK(p.measured == 10 && p.remaining == GROUPS * PER - 10 && p.scroll_offset == 0);
    double *want = pe_expected(george, &ios, &rows);
    int bad_rows = 0;
    for (int64_t i = 0; i < 10; i++) {
        tess_row_info info;
        OK(tess_engine_get_row(e, i, &info), e);
        if (info.height != want[i] || !(info.flags & TESS_ROW_MEASURED) || (info.flags & TESS_ROW_DIRTY)) bad_rows++;
    }
    CHECK(bad_rows == 0);
    CHECK(pe_flags(e, 10) & TESS_ROW_DIRTY);
    /* Hand-computed heights (Profiles/README.md examples 6 and 7, iOS). */
    CHECK(want[1] == 44 && want[3] == 82 && want[6] == 82 && want[4] == 44);
    /* A zero time budget measures nothing. */
    OK(tess_engine_measure(e, TESS_BUDGET_NANOSECONDS, 0, &p), e);
    CHECK(p.measured == 0 && p.remaining == GROUPS * PER - 10);
    OK(tess_engine_measure_all(e, 2, &y), e);
    OK(tess_engine_dirty_count(e, &dirty), e);
    CHECK(dirty == 0);
    pe_check_rows(e, &rows, want);
    OK(tess_engine_measure(e, TESS_BUDGET_ROWS, 100, &p), e);
    CHECK(p.measured == 0 && p.remaining == 0);

    /* Windows: at the top, inside a group, and where the group's end pushes its header up. */
    pe_check_items(e, &rows, 375);
    double group3 = 0, group4 = 0;
    OK(tess_engine_offset_of_row(e, 3 * PER, &group3), e);
    OK(tess_engine_offset_of_row(e, 4 * PER, &group4), e);
    OK(tess_engine_scroll_to(e, group3 + 30, &y), e);
    pe_check_items(e, &rows, 375);
    OK(tess_engine_scroll_to(e, group4 - 10, &y), e);
    pe_check_items(e, &rows, 375);
    tess_visible_item sticky;
    tess_visible_item items[128];
    int64_t n = 0;
    OK(tess_engine_items(e, items, 128, &n, &sticky, &has), e);
    CHECK(has == 1 && sticky.row == 3 * PER && sticky.y < group4 - 10);
    OK(tess_engine_scroll_to(e, 0, &y), e);

    /* Element frames of a stored row: example 7 on iOS. */
    tess_element_frame frames[32];
    double cw = 0, ch = 0;
    OK(tess_engine_row_frames(e, 3, frames, 32, &n, &cw, &ch), e);
    CHECK(cw == 375 && ch == 82);
    int64_t basic_kind = kind_index(george, "basicCell");
    int64_t label = slot_position(george, basic_kind, "label");
    CHECK(FRAME_IS(find_slot(frames, n, label), 56, 8, 279, 44));
    CHECK(FRAME_IS(find_slot(frames, n, slot_position(george, basic_kind, "chevron")), 351, 34.5, 8, 13));
    CHECK(n > 0 && frames[n - 1].type == TESS_ELEMENT_DIVIDER && FRAME_IS(&frames[n - 1], 56, 82, 319, 0));
    int64_t needed = 0;
    FAILS(tess_engine_row_frames(e, 3, frames, 1, &needed, NULL, NULL), e, TESS_ERROR_BUFFER_TOO_SMALL, "frames");
    CHECK(needed == n);
    FAILS(tess_engine_row_frames(e, -1, frames, 32, &n, NULL, NULL), e, TESS_ERROR_OUT_OF_RANGE, "row -1");
    FAILS(tess_engine_row_frames(e, rows.count, frames, 32, &n, NULL, NULL), e, TESS_ERROR_OUT_OF_RANGE, "row");
    FAILS(tess_engine_row_frames(e, 3, NULL, 32, &n, NULL, NULL), e, TESS_ERROR_NULL_ARGUMENT, "frames");
    FAILS(tess_engine_row_frames(e, 3, frames, 32, NULL, NULL, NULL), e, TESS_ERROR_NULL_ARGUMENT, "count");

    /* Cache statistics: the stub was asked and the caches served lookups. */
    tess_text_statistics st;
    OK(tess_engine_get_statistics(e, &st), e);
    CHECK(st.segments.hits + st.segments.misses + st.segments.bypasses > 0 && st.line_breaks.budget > 0);
    CHECK(stub.calls > 0);

    /* The environment: width class, width, platform, font scale, edit mode. */
    char wc[32];
    int64_t len = 0;
    OK(tess_engine_width_class(e, wc, sizeof wc, &len), e);
    CHECK(len == 7 && memcmp(wc, "compact", 7) == 0);
    FAILS(tess_engine_width_class(e, wc, 3, &len), e, TESS_ERROR_BUFFER_TOO_SMALL, "buffer");
    CHECK(len == 7);
    OK(tess_engine_set_width(e, 700, &y), e);
    OK(tess_engine_width_class(e, wc, sizeof wc, &len), e);
    CHECK(len == 7 && memcmp(wc, "regular", 7) == 0);
    OK(tess_engine_dirty_count(e, &dirty), e);
    CHECK(dirty > 0);
    OK(tess_engine_measure_all(e, 1, &y), e);
    tess_environment wide = {700, TESS_PLATFORM_IOS, 0, 1};
    double *want_wide = pe_expected(george, &wide, &rows);
    pe_check_rows(e, &rows, want_wide);
    pe_check_items(e, &rows, 700);
    free(want_wide);
    OK(tess_engine_set_width(e, 375, &y), e);
    /* The host's width class: regular at 375 pt, kept by width changes, then back to the width's. */
    OK(tess_engine_set_width_class(e, "regular", 7, &y), e);
    OK(tess_engine_width_class(e, wc, sizeof wc, &len), e);
    CHECK(len == 7 && memcmp(wc, "regular", 7) == 0);
    OK(tess_engine_set_width(e, 380, &y), e);
    OK(tess_engine_width_class(e, wc, sizeof wc, &len), e);
    CHECK(len == 7 && memcmp(wc, "regular", 7) == 0);
    FAILS(tess_engine_set_width_class(e, "roomy", 5, &y), e, TESS_ERROR_INVALID_ENVIRONMENT, "widthClass");
    FAILS(tess_engine_set_width_class(e, NULL, 3, &y), e, TESS_ERROR_NULL_ARGUMENT, "name");
    FAILS(tess_engine_set_width_class(e, "\xff", 1, &y), e, TESS_ERROR_INVALID_UTF8, "name");
    FAILS(tess_engine_set_width_class(NULL, NULL, 0, &y), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    OK(tess_engine_width_class(e, wc, sizeof wc, &len), e);
    CHECK(len == 7 && memcmp(wc, "regular", 7) == 0);
    OK(tess_engine_set_width_class(e, NULL, 0, &y), e);
    OK(tess_engine_set_width(e, 375, &y), e);
    OK(tess_engine_width_class(e, wc, sizeof wc, &len), e);
    CHECK(len == 7 && memcmp(wc, "compact", 7) == 0);
    OK(tess_engine_measure_all(e, 1, &y), e);
    OK(tess_engine_set_platform(e, TESS_PLATFORM_ANDROID, &y), e);
    OK(tess_engine_dirty_count(e, &dirty), e);
    CHECK(dirty > 0);
    OK(tess_engine_measure_all(e, 2, &y), e);
    tess_environment android = {375, TESS_PLATFORM_ANDROID, 0, 1};
    double *want_android = pe_expected(george, &android, &rows);
    CHECK(want_android[1] == 48 && want_android[3] == 86); /* examples 6 and 7 on Android */
    pe_check_rows(e, &rows, want_android);
    pe_check_items(e, &rows, 375);
    free(want_android);
    OK(tess_engine_set_platform(e, TESS_PLATFORM_IOS, &y), e);
    OK(tess_engine_set_font_scale(e, 2, &y), e);
    OK(tess_engine_measure(e, TESS_BUDGET_ROWS, 1 << 20, &p), e);
    CHECK(p.remaining == 0);
    tess_environment big = {375, TESS_PLATFORM_IOS, 0, 2};
    double *want_big = pe_expected(george, &big, &rows);
    pe_check_rows(e, &rows, want_big);
    free(want_big);
    OK(tess_engine_set_font_scale(e, 1, &y), e);
    tess_environment got;
    OK(tess_engine_set_environment(e, &ios, &y), e);
    OK(tess_engine_get_environment(e, &got), e);
    CHECK(got.width == 375 && got.platform == TESS_PLATFORM_IOS && got.edit_mode == 0 && got.font_scale == 1);
    OK(tess_engine_measure_all(e, 1, &y), e);
    pe_check_rows(e, &rows, want);
    tess_parameters none = {NULL, 0, NULL, NULL, 0};
    OK(tess_engine_set_parameters(e, &none, &y), e);
    double overscan = -1;
    OK(tess_engine_set_overscan(e, 50), e);
    OK(tess_engine_get_overscan(e, &overscan), e);
    CHECK(overscan == 50);

    /* Bad input: each fails with its status and a message naming the argument, and the
     * engine stays as it was. */
    pe_state before = pe_take(e);
    const double nan = NAN, inf = INFINITY;
    FAILS(tess_engine_set_width(e, nan, &y), e, TESS_ERROR_INVALID_ENVIRONMENT, "width");
    FAILS(tess_engine_set_width(e, inf, &y), e, TESS_ERROR_INVALID_ENVIRONMENT, "width");
    FAILS(tess_engine_set_width(e, -5, &y), e, TESS_ERROR_INVALID_ENVIRONMENT, "width");
    FAILS(tess_engine_set_width(e, 2e6, &y), e, TESS_ERROR_INVALID_ENVIRONMENT, "width");
    FAILS(tess_engine_set_font_scale(e, nan, &y), e, TESS_ERROR_INVALID_ENVIRONMENT, "fontScale");
    FAILS(tess_engine_set_font_scale(e, 0, &y), e, TESS_ERROR_INVALID_ENVIRONMENT, "fontScale");
    FAILS(tess_engine_set_platform(e, 7, &y), e, TESS_ERROR_INVALID_ARGUMENT, "platform 7");
    FAILS(tess_engine_set_edit_mode(e, 2, &y), e, TESS_ERROR_INVALID_ARGUMENT, "edit_mode 2");
    tess_environment bad_env = {375, TESS_PLATFORM_IOS, -1, 1};
    FAILS(tess_engine_set_environment(e, &bad_env, &y), e, TESS_ERROR_INVALID_ARGUMENT, "edit_mode");
    FAILS(tess_engine_set_environment(e, NULL, &y), e, TESS_ERROR_NULL_ARGUMENT, "environment");
    int64_t name_offsets[3] = {0, 7, 50};
    int64_t values[2] = {3, 4};
    tess_parameters unknown = {"noSuchP", 7, name_offsets, values, 1};
    FAILS(tess_engine_set_parameters(e, &unknown, &y), e, TESS_ERROR_INVALID_ENVIRONMENT, "noSuchP");
    tess_parameters past = {"noSuchP", 7, name_offsets, values, 2};
    FAILS(tess_engine_set_parameters(e, &past, &y), e, TESS_ERROR_INVALID_TEXT_OFFSETS, "name_offsets[1]");
    tess_parameters invalid = {"\xff\xfe", 2, name_offsets, values, 1};
    name_offsets[1] = 2;
    FAILS(tess_engine_set_parameters(e, &invalid, &y), e, TESS_ERROR_INVALID_UTF8, "name 0");
    name_offsets[1] = 7;
    tess_parameters null_names = {NULL, 7, name_offsets, values, 1};
    FAILS(tess_engine_set_parameters(e, &null_names, &y), e, TESS_ERROR_NULL_ARGUMENT, "names_utf8");
    tess_parameters negative = {"x", 1, name_offsets, values, -1};
    FAILS(tess_engine_set_parameters(e, &negative, &y), e, TESS_ERROR_INVALID_ARGUMENT, "parameters.count");
    FAILS(tess_engine_set_parameters(e, NULL, &y), e, TESS_ERROR_NULL_ARGUMENT, "parameters");
    FAILS(tess_engine_set_overscan(e, nan), e, TESS_ERROR_INVALID_ARGUMENT, "overscan");
    FAILS(tess_engine_set_overscan(e, -1), e, TESS_ERROR_INVALID_ARGUMENT, "overscan");
    FAILS(tess_engine_measure(e, 5, 10, &p), e, TESS_ERROR_INVALID_ARGUMENT, "budget_kind 5");
    FAILS(tess_engine_measure(e, TESS_BUDGET_ROWS, -1, &p), e, TESS_ERROR_INVALID_ARGUMENT, "budget -1");
    FAILS(tess_engine_measure_all(e, 0, &y), e, TESS_ERROR_INVALID_ARGUMENT, "threads 0");
    FAILS(tess_engine_measure_all(e, 257, &y), e, TESS_ERROR_INVALID_ARGUMENT, "threads 257");
    FAILS(tess_engine_dirty_count(e, NULL), e, TESS_ERROR_NULL_ARGUMENT, "count");
    FAILS(tess_engine_get_statistics(e, NULL), e, TESS_ERROR_NULL_ARGUMENT, "out");
    FAILS(tess_engine_get_environment(e, NULL), e, TESS_ERROR_NULL_ARGUMENT, "out");
    FAILS(tess_engine_items(e, items, 128, NULL, NULL, NULL), e, TESS_ERROR_NULL_ARGUMENT, "count");
    FAILS(tess_engine_items(e, NULL, 128, &n, NULL, NULL), e, TESS_ERROR_NULL_ARGUMENT, "items");
    FAILS(tess_engine_items(e, items, -1, &n, NULL, NULL), e, TESS_ERROR_INVALID_ARGUMENT, "capacity");
    FAILS(tess_engine_width_class(e, NULL, 4, &len), e, TESS_ERROR_NULL_ARGUMENT, "buffer");
    FAILS(tess_engine_row_version(e, rows.count, &before.versions), e, TESS_ERROR_OUT_OF_RANGE, "row");
    FAILS(tess_engine_row_version(e, 0, NULL), e, TESS_ERROR_NULL_ARGUMENT, "version");
    /* Rows: duplicates, unknown kinds, broken rules, bad text, heights, ranges. */
    pe_rows extra = {0};
    pe_group(&extra, 900000, 5, 4, 1);
    tess_text_columns et = pe_text(&extra);
    uint64_t saved = extra.ids[2];
    extra.ids[2] = rows.ids[7];
    FAILS(tess_engine_append_rows(e, extra.ids, extra.kinds, extra.versions, extra.count, &et, &y), e,
          TESS_ERROR_DUPLICATE_ID, "rows");
    extra.ids[2] = extra.ids[1];
    FAILS(tess_engine_insert_rows(e, 20, extra.ids, extra.kinds, extra.versions, extra.count, &et, &y), e,
          TESS_ERROR_DUPLICATE_ID, "rows");
    extra.ids[2] = saved;
    extra.kinds[1] = 999;
    FAILS(tess_engine_append_rows(e, extra.ids, extra.kinds, extra.versions, extra.count, &et, &y), e,
          TESS_ERROR_UNKNOWN_KIND, "999");
    extra.kinds[1] = pe_basic;
    int64_t label_start = extra.offsets[1 * PE_SLOTS + 2];
    extra.offsets[1 * PE_SLOTS + 3] = label_start; /* basic row 1 loses its required label */
    FAILS(tess_engine_append_rows(e, extra.ids, extra.kinds, extra.versions, extra.count, &et, &y), e,
          TESS_ERROR_RULE_VIOLATION, "label");
    extra.offsets[1 * PE_SLOTS + 3] = label_start + 1;
    extra.utf8[label_start] = (char)0xff;
    FAILS(tess_engine_append_rows(e, extra.ids, extra.kinds, extra.versions, extra.count, &et, &y), e,
          TESS_ERROR_INVALID_UTF8, "UTF-8");
    extra.utf8[label_start] = 'x';
    et.byte_count = 3; /* offsets now point past the buffer */
    FAILS(tess_engine_append_rows(e, extra.ids, extra.kinds, extra.versions, extra.count, &et, &y), e,
          TESS_ERROR_INVALID_TEXT_OFFSETS, "text");
    et = pe_text(&extra);
    uint16_t lone_kinds[2] = {pe_header, pe_single};
    uint64_t lone_ids[2] = {800001, 800002};
    const char lone_utf8[] = "HOne";
    int64_t lone_offsets[2 * PE_SLOTS + 1] = {0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2};
    lone_offsets[PE_SLOTS + 1] = 4; /* the single-selection row's label "One" */
    for (int s = PE_SLOTS + 2; s <= 2 * PE_SLOTS; s++) lone_offsets[s] = 4;
    tess_text_columns lone = {lone_utf8, 4, lone_offsets, PE_SLOTS};
    FAILS(tess_engine_append_rows(e, lone_ids, lone_kinds, NULL, 2, &lone, &y), e, TESS_ERROR_RULE_VIOLATION,
          "rows");
    FAILS(tess_engine_append_rows(e, extra.ids, extra.kinds, extra.versions, -1, &et, &y), e,
          TESS_ERROR_INVALID_ARGUMENT, "count -1");
    FAILS(tess_engine_append_rows(e, NULL, extra.kinds, extra.versions, extra.count, &et, &y), e,
          TESS_ERROR_NULL_ARGUMENT, "ids");
    FAILS(tess_engine_append_rows(e, extra.ids, NULL, extra.versions, extra.count, &et, &y), e,
          TESS_ERROR_NULL_ARGUMENT, "kinds");
    FAILS(tess_engine_insert_rows(e, -1, extra.ids, extra.kinds, extra.versions, extra.count, &et, &y), e,
          TESS_ERROR_OUT_OF_RANGE, "index -1");
    FAILS(tess_engine_insert_rows(e, rows.count + 1, extra.ids, extra.kinds, extra.versions, extra.count, &et, &y), e,
          TESS_ERROR_OUT_OF_RANGE, "index");
    double heights[4] = {50, 50, 50, 50};
    FAILS(tess_engine_append(e, extra.ids, extra.kinds, heights, extra.count, &et, &y), e, TESS_ERROR_INVALID_ARGUMENT,
          "heights");
    FAILS(tess_engine_set_heights(e, 0, heights, 1, &y), e, TESS_ERROR_INVALID_ARGUMENT, "setHeight");
    /* A section of group 2 removed alone would leave the selection rows of group 1 fine,
     * but removing one of group 1's two single-selection rows breaks the group rule. */
    FAILS(tess_engine_remove(e, PER + 1, 1, &y), e, TESS_ERROR_RULE_VIOLATION, "");
    pe_state after = pe_take(e);
    CHECK(pe_same(before, after));

    /* A host callback answering NaN while measuring: the call fails and stores nothing. */
    const char *nan_row[PE_SLOTS] = {0};
    nan_row[2] = "N";
    pe_rows poison = {0};
    pe_add(&poison, 700001, pe_basic, 1, nan_row);
    tess_text_columns pt = pe_text(&poison);
    OK(tess_engine_insert_rows(e, 1, poison.ids, poison.kinds, poison.versions, 1, &pt, &y), e);
    before = pe_take(e);
    stub.mode = 1;
    FAILS(tess_engine_measure(e, TESS_BUDGET_ROWS, 100, &p), e, TESS_ERROR_CALLBACK, "measure callback");
    CHECK(pe_same(before, pe_take(e)));
    FAILS(tess_engine_measure_all(e, 2, &y), e, TESS_ERROR_CALLBACK, "measure callback");
    CHECK(pe_same(before, pe_take(e)));
    FAILS(tess_engine_row_frames(e, 1, frames, 32, &n, NULL, NULL), e, TESS_ERROR_CALLBACK, "measure callback");
    stub.mode = 0;
    OK(tess_engine_measure_all(e, 2, &y), e);
    tess_row_info info;
    OK(tess_engine_get_row(e, 1, &info), e);
    CHECK(info.height == 44 && (info.flags & TESS_ROW_MEASURED));
    OK(tess_engine_remove(e, 1, 1, &y), e);
    pe_check_rows(e, &rows, want);
    pe_free(&poison);

    /* Calls that need a profile, on a store-driven engine. */
    tess_engine_t *plain = NULL;
    OK(tess_engine_create(estimates, 3, 500, &plain), NULL);
    OK(tess_engine_has_profile(plain, &has), plain);
    CHECK(has == 0);
    FAILS(tess_engine_set_width(plain, 300, &y), plain, TESS_ERROR_INVALID_ARGUMENT, "profile");
    FAILS(tess_engine_get_environment(plain, &got), plain, TESS_ERROR_INVALID_ARGUMENT, "profile");
    FAILS(tess_engine_row_frames(plain, 0, frames, 32, &n, NULL, NULL), plain, TESS_ERROR_INVALID_ARGUMENT, "profile");
    FAILS(tess_engine_measure(plain, TESS_BUDGET_ROWS, 1, &p), plain, TESS_ERROR_INVALID_ARGUMENT, "profile");
    FAILS(tess_engine_get_statistics(plain, &st), plain, TESS_ERROR_INVALID_ARGUMENT, "profile");
    OK(tess_engine_dirty_count(plain, &dirty), plain);
    CHECK(dirty == 0);

    /* Creation errors: the thread's message names the argument. */
    FAILS(tess_engine_create_with_profile(NULL, &ios, NULL, 600, 100, NULL, &bad), NULL, TESS_ERROR_NULL_ARGUMENT,
          "profile");
    FAILS(tess_engine_create_with_profile(george, NULL, NULL, 600, 100, NULL, &bad), NULL, TESS_ERROR_NULL_ARGUMENT,
          "environment");
    FAILS(tess_engine_create_with_profile(george, &ios, NULL, 600, 100, NULL, NULL), NULL, TESS_ERROR_NULL_ARGUMENT,
          "out");
    FAILS(tess_engine_create_with_profile(george, &ios, NULL, nan, 100, NULL, &bad), NULL, TESS_ERROR_INVALID_ARGUMENT,
          "viewport");
    FAILS(tess_engine_create_with_profile(george, &ios, NULL, 600, -inf, NULL, &bad), NULL,
          TESS_ERROR_INVALID_ARGUMENT, "overscan");
    tess_environment wrong = {inf, TESS_PLATFORM_IOS, 0, 1};
    FAILS(tess_engine_create_with_profile(george, &wrong, NULL, 600, 100, NULL, &bad), NULL,
          TESS_ERROR_INVALID_ENVIRONMENT, "width");
    wrong.width = 375;
    wrong.platform = 3;
    FAILS(tess_engine_create_with_profile(george, &wrong, NULL, 600, 100, NULL, &bad), NULL,
          TESS_ERROR_INVALID_ARGUMENT, "platform");
    FAILS(tess_engine_create_with_profile(george, &ios, &unknown, 600, 100, NULL, &bad), NULL,
          TESS_ERROR_INVALID_ENVIRONMENT, "noSuchP");
    CHECK(bad == NULL);
    /* NULL handles. */
    FAILS(tess_engine_has_profile(NULL, &has), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_append_rows(NULL, NULL, NULL, NULL, 0, NULL, NULL), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_insert_rows(NULL, 0, NULL, NULL, NULL, 0, NULL, NULL), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_row_version(NULL, 0, &before.versions), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_get_environment(NULL, &got), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_set_environment(NULL, &ios, NULL), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_set_width(NULL, 1, NULL), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_set_edit_mode(NULL, 1, NULL), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_set_font_scale(NULL, 1, NULL), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_set_platform(NULL, 0, NULL), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_set_parameters(NULL, &none, NULL), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_width_class(NULL, wc, 32, &len), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_set_overscan(NULL, 1), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_get_overscan(NULL, &overscan), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_dirty_count(NULL, &dirty), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_measure(NULL, 0, 1, NULL), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_measure_all(NULL, 1, NULL), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_get_statistics(NULL, &st), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_items(NULL, items, 1, &n, NULL, NULL), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_row_frames(NULL, 0, frames, 1, &n, NULL, NULL), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");

    /* ---- Snapshots: prepare, read both forms, apply; the anchor row stays still. ---- */
    tess_batch_t *b = NULL, *b2 = NULL;
    OK(tess_batch_create(&b), NULL);
    OK(tess_batch_create(&b2), NULL);
    int32_t prepared = -1;
    OK(tess_batch_is_prepared(b, &prepared), b);
    CHECK(prepared == 0);
    tess_diff_counts counts;
    FAILS(tess_batch_get_counts(b, &counts), b, TESS_ERROR_NO_RESULT, "batch");
    FAILS(tess_engine_apply_prepared(e, b, &y), e, TESS_ERROR_NO_RESULT, "prepared");
    /* Scroll into group 10 and note the anchor. */
    double g10 = 0;
    OK(tess_engine_offset_of_row(e, 10 * PER + 4, &g10), e);
    OK(tess_engine_scroll_to(e, g10 + 5, &y), e);
    uint64_t anchor_id = 0;
    double anchor_in = 0;
    OK(tess_engine_get_anchor(e, &has, &anchor_id, &anchor_in), e);
    CHECK(has == 1 && anchor_id == rows.ids[10 * PER + 4] && anchor_in == 5);
    /* The new list: group 3 deleted, a new group before group 5, groups 7 and 8 swapped,
     * every cell of group 6 with a new version (content change), unread new rows. */
    pe_rows next = {0};
    for (int g = 0; g < GROUPS; g++) {
        if (g == 3) continue;
        if (g == 5) {
            int64_t first = next.count;
            pe_group(&next, 500000, 5, PER, 1);
            for (int64_t i = first; i < next.count; i++) next.unread[i] = 1;
        }
        int src = g == 7 ? 8 : g == 8 ? 7 : g;
        pe_group(&next, 1000 + (uint64_t)src * 100, src, PER, src == 6 ? 2 : 1);
    }
    /* (Group 6 keeps its text: a new version alone makes an update.) */
    tess_text_columns nt = pe_text(&next);
    tess_snapshot snap = pe_snapshot(&next, &nt);
    OK(tess_engine_prepare(e, &snap, b), e);
    OK(tess_batch_is_prepared(b, &prepared), b);
    CHECK(prepared == 1);
    pe_check_batch(b, &rows, &next);
    OK(tess_batch_get_counts(b, &counts), b);
    CHECK(counts.deletes == PER && counts.inserts == PER && counts.updates == PER && counts.moves > 0);
    double anchor_top = 0;
    OK(tess_engine_apply_prepared(e, b, &y), e);
    OK(tess_batch_is_prepared(b, &prepared), b);
    CHECK(prepared == 0);
    pe_check_rows(e, &next, NULL);
    OK(tess_engine_offset_of_row(e, pe_row_of(e, anchor_id), &anchor_top), e);
    CHECK(y == anchor_top + 5); /* the anchor row is where it was seen */
    double scroll_now = 0;
    OK(tess_engine_get_scroll_offset(e, &scroll_now), e);
    CHECK(scroll_now == y);
    OK(tess_engine_dirty_count(e, &dirty), e);
    CHECK(dirty == 2 * PER); /* the inserted group and group 6 (header version changed too) */
    CHECK((pe_flags(e, pe_row_of(e, 500001)) & (TESS_ROW_UNREAD | TESS_ROW_DIRTY)) == (TESS_ROW_UNREAD | TESS_ROW_DIRTY));
    CHECK(!(pe_flags(e, pe_row_of(e, 1000 + 7 * 100 + 1)) & TESS_ROW_DIRTY)); /* moved rows keep their height */
    FAILS(tess_engine_apply_prepared(e, b, &y), e, TESS_ERROR_NO_RESULT, "prepared");
    OK(tess_engine_measure_all(e, 2, &y), e);
    double *want_next = pe_expected(george, &ios, &next);
    pe_check_rows(e, &next, want_next);
    free(want_next);
    /* A stale batch: prepared, then the rows change. */
    OK(tess_engine_prepare(e, &snap, b2), e);
    OK(tess_engine_insert_rows(e, 0, extra.ids, extra.kinds, extra.versions, extra.count, &et, &y), e);
    before = pe_take(e);
    FAILS(tess_engine_apply_prepared(e, b2, &y), e, TESS_ERROR_STALE_BATCH, "changed");
    CHECK(pe_same(before, pe_take(e)));
    /* Another engine's batch. */
    tess_engine_t *other = NULL;
    OK(tess_engine_create_with_profile(george, &ios, NULL, 600, 100, NULL, &other), NULL);
    OK(tess_engine_prepare(other, &snap, b2), other);
    FAILS(tess_engine_apply_prepared(e, b2, &y), e, TESS_ERROR_STALE_BATCH, "another list");
    CHECK(pe_same(before, pe_take(e)));
    /* Applied in one call: the extra group goes again; the batch records it. */
    OK(tess_engine_apply(e, &snap, b, &y), e);
    OK(tess_batch_get_counts(b, &counts), b);
    CHECK(counts.deletes == extra.count && counts.inserts == 0 && counts.updates == 0 && counts.old_count == next.count + extra.count);
    int64_t del[8];
    OK(tess_batch_indexes(b, TESS_DIFF_DELETES, del, 8, &n), b);
    CHECK(n == 4 && del[0] == 0 && del[3] == 3);
    pe_check_rows(e, &next, NULL);
    OK(tess_engine_apply(e, &snap, NULL, &y), e); /* the same snapshot: an empty batch */
    /* Snapshot bad input. */
    before = pe_take(e);
    uint64_t keep = next.ids[5];
    next.ids[5] = next.ids[9];
    FAILS(tess_engine_apply(e, &snap, b, &y), e, TESS_ERROR_DUPLICATE_ID, "");
    FAILS(tess_engine_prepare(e, &snap, b), e, TESS_ERROR_DUPLICATE_ID, "");
    next.ids[5] = keep;
    next.versions[5] = 99;
    next.kinds[5] = 999;
    FAILS(tess_engine_apply(e, &snap, b, &y), e, TESS_ERROR_UNKNOWN_KIND, "999");
    /* prepare checks the rows it brings: the same errors before anything is animated, and
       the batch keeps what it held. */
    FAILS(tess_engine_prepare(e, &snap, b), e, TESS_ERROR_UNKNOWN_KIND, "999");
    OK(tess_batch_is_prepared(b, &prepared), b);
    CHECK(prepared == 0);
    next.kinds[5] = pe_basic;
    int64_t l5 = next.offsets[5 * PE_SLOTS + 2];
    int64_t l5_end = next.offsets[5 * PE_SLOTS + 3];
    next.offsets[5 * PE_SLOTS + 3] = l5; /* an updated row without its required label */
    FAILS(tess_engine_apply(e, &snap, b, &y), e, TESS_ERROR_RULE_VIOLATION, "label");
    FAILS(tess_engine_prepare(e, &snap, b), e, TESS_ERROR_RULE_VIOLATION, "label");
    next.offsets[5 * PE_SLOTS + 3] = l5_end;
    next.utf8[l5] = (char)0xc0;
    FAILS(tess_engine_apply(e, &snap, b, &y), e, TESS_ERROR_INVALID_UTF8, "");
    next.utf8[l5] = 'x';
    next.unread[0] = 2;
    FAILS(tess_engine_apply(e, &snap, b, &y), e, TESS_ERROR_INVALID_ARGUMENT, "unread[0]");
    next.unread[0] = 0;
    double snap_heights[1] = {10};
    tess_snapshot with_heights = snap;
    with_heights.heights = snap_heights;
    with_heights.count = 1;
    tess_text_columns one_text = nt;
    with_heights.text = &one_text;
    FAILS(tess_engine_apply(e, &with_heights, b, &y), e, TESS_ERROR_INVALID_ARGUMENT, "heights");
    tess_snapshot broken = snap;
    broken.count = -3;
    FAILS(tess_engine_apply(e, &broken, b, &y), e, TESS_ERROR_INVALID_ARGUMENT, "snapshot.count");
    broken = snap;
    broken.ids = NULL;
    FAILS(tess_engine_apply(e, &broken, b, &y), e, TESS_ERROR_NULL_ARGUMENT, "snapshot.ids");
    broken = snap;
    broken.versions = NULL;
    FAILS(tess_engine_prepare(e, &broken, b), e, TESS_ERROR_NULL_ARGUMENT, "snapshot.versions");
    tess_text_columns short_text = nt;
    short_text.byte_count = 2;
    broken = snap;
    broken.text = &short_text;
    FAILS(tess_engine_apply(e, &broken, b, &y), e, TESS_ERROR_INVALID_TEXT_OFFSETS, "");
    next.versions[5] = 1;
    /* Group rules: a snapshot leaving one single-selection row in group 1. */
    broken = snap;
    uint64_t *fewer = malloc(sizeof(uint64_t) * (size_t)next.count);
    uint16_t *fewer_kinds = malloc(sizeof(uint16_t) * (size_t)next.count);
    uint64_t *fewer_versions = malloc(sizeof(uint64_t) * (size_t)next.count);
    int64_t fc = 0;
    for (int64_t i = 0; i < next.count; i++) {
        if (i == PER + 2) continue;
        fewer[fc] = next.ids[i];
        fewer_kinds[fc] = next.kinds[i];
        fewer_versions[fc++] = next.versions[i];
    }
    tess_snapshot rule = {fewer, fewer_kinds, fewer_versions, fc, NULL, NULL, NULL};
    FAILS(tess_engine_apply(e, &rule, b, &y), e, TESS_ERROR_RULE_VIOLATION, "");
    FAILS(tess_engine_apply(e, NULL, b, &y), e, TESS_ERROR_NULL_ARGUMENT, "snapshot");
    FAILS(tess_engine_prepare(e, &snap, NULL), e, TESS_ERROR_NULL_ARGUMENT, "batch");
    FAILS(tess_engine_apply_prepared(e, NULL, &y), e, TESS_ERROR_NULL_ARGUMENT, "batch");
    CHECK(pe_same(before, pe_take(e)));
    FAILS(tess_batch_indexes(b, 9, del, 8, &n), b, TESS_ERROR_INVALID_ARGUMENT, "which 9");
    FAILS(tess_batch_indexes(b, TESS_DIFF_DELETES, NULL, 8, &n), b, TESS_ERROR_NULL_ARGUMENT, "indexes");
    FAILS(tess_batch_moves(b, NULL, 3, &n), b, TESS_ERROR_NULL_ARGUMENT, "moves");
    FAILS(tess_batch_operations(b, NULL, 0, NULL), b, TESS_ERROR_NULL_ARGUMENT, "count");
    FAILS(tess_batch_get_counts(b, NULL), b, TESS_ERROR_NULL_ARGUMENT, "out");
    FAILS(tess_batch_is_prepared(b, NULL), b, TESS_ERROR_NULL_ARGUMENT, "out");
    FAILS(tess_batch_create(NULL), NULL, TESS_ERROR_NULL_ARGUMENT, "out");
    FAILS(tess_batch_get_counts(NULL, &counts), NULL, TESS_ERROR_NULL_ARGUMENT, "batch");
    FAILS(tess_batch_indexes(NULL, 0, del, 8, &n), NULL, TESS_ERROR_NULL_ARGUMENT, "batch");
    FAILS(tess_batch_moves(NULL, NULL, 0, &n), NULL, TESS_ERROR_NULL_ARGUMENT, "batch");
    FAILS(tess_batch_operations(NULL, NULL, 0, &n), NULL, TESS_ERROR_NULL_ARGUMENT, "batch");
    FAILS(tess_batch_is_prepared(NULL, &prepared), NULL, TESS_ERROR_NULL_ARGUMENT, "batch");
    FAILS(tess_engine_prepare(NULL, &snap, b), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_apply(NULL, &snap, b, &y), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_apply_prepared(NULL, b, &y), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    free(fewer);
    free(fewer_kinds);
    free(fewer_versions);

    /* ---- Swipe ---- */
    OK(tess_engine_scroll_to(e, 0, &y), e);
    int64_t changed = -1;
    tess_row_reference refs[8];
    uint64_t cell_a = next.ids[1], cell_b = next.ids[2];
    OK(tess_engine_swipe(e, cell_a, TESS_SWIPE_TRAILING, 80, &changed), e);
    CHECK(changed == 1 && (pe_flags(e, 1) & TESS_ROW_SWIPE_OPEN));
    OK(tess_engine_changed_rows(e, refs, 8, &n), e);
    CHECK(n == 1 && refs[0].id == cell_a && refs[0].row == 1);
    int32_t open = -1, edge = -1;
    uint64_t open_id = 0;
    double open_width = 0;
    OK(tess_engine_get_swipe(e, &open, &open_id, &edge, &open_width), e);
    CHECK(open == 1 && open_id == cell_a && edge == TESS_SWIPE_TRAILING && open_width == 80);
    OK(tess_engine_swipe(e, cell_b, TESS_SWIPE_LEADING, 60, &changed), e);
    CHECK(changed == 2 && !(pe_flags(e, 1) & TESS_ROW_SWIPE_OPEN) && (pe_flags(e, 2) & TESS_ROW_SWIPE_OPEN));
    OK(tess_engine_changed_rows(e, refs, 8, &n), e);
    CHECK(n == 2 && refs[0].id == cell_a && refs[1].id == cell_b);
    FAILS(tess_engine_changed_rows(e, refs, 1, &n), e, TESS_ERROR_BUFFER_TOO_SMALL, "rows");
    CHECK(n == 2);
    before = pe_take(e);
    FAILS(tess_engine_swipe(e, next.ids[0], TESS_SWIPE_TRAILING, 80, &changed), e, TESS_ERROR_NOT_ALLOWED, "header");
    FAILS(tess_engine_swipe(e, 424242, TESS_SWIPE_TRAILING, 80, &changed), e, TESS_ERROR_UNKNOWN_ID, "424242");
    FAILS(tess_engine_swipe(e, cell_a, TESS_SWIPE_TRAILING, nan, &changed), e, TESS_ERROR_INVALID_ARGUMENT, "nan");
    FAILS(tess_engine_swipe(e, cell_a, TESS_SWIPE_TRAILING, 0, &changed), e, TESS_ERROR_INVALID_ARGUMENT, "");
    FAILS(tess_engine_swipe(e, cell_a, TESS_SWIPE_TRAILING, 400, &changed), e, TESS_ERROR_INVALID_ARGUMENT, "400");
    FAILS(tess_engine_swipe(e, cell_a, 9, 80, &changed), e, TESS_ERROR_INVALID_ARGUMENT, "edge 9");
    FAILS(tess_engine_commit_swipe(e, 424242, b, &y), e, TESS_ERROR_UNKNOWN_ID, "424242");
    FAILS(tess_engine_commit_swipe(e, next.ids[PER + 1], b, &y), e, TESS_ERROR_RULE_VIOLATION, "");
    FAILS(tess_engine_get_swipe(e, NULL, NULL, NULL, NULL), e, TESS_ERROR_NULL_ARGUMENT, "is_open");
    FAILS(tess_engine_changed_rows(e, NULL, 2, &n), e, TESS_ERROR_NULL_ARGUMENT, "rows");
    CHECK(pe_same(before, pe_take(e)));
    /* A full swipe deletes the row through the batch pipeline; the rows above stay. */
    double top2 = 0;
    OK(tess_engine_scroll_to(e, 300, &y), e);
    int64_t first_visible = -1;
    OK(tess_engine_row_at_offset(e, 300, &first_visible, NULL), e);
    uint64_t visible_id = 0;
    OK(tess_engine_get_anchor(e, &has, &visible_id, &anchor_in), e);
    int64_t victim = first_visible + 2;
    while (next.kinds[victim] != pe_basic) victim++;
    uint64_t victim_id = next.ids[victim];
    OK(tess_engine_offset_of_row(e, first_visible, &top2), e);
    OK(tess_engine_commit_swipe(e, victim_id, b, &y), e);
    CHECK(y == 300);
    OK(tess_batch_get_counts(b, &counts), b);
    CHECK(counts.deletes == 1 && counts.inserts == 0 && counts.old_count == next.count);
    OK(tess_batch_indexes(b, TESS_DIFF_DELETES, del, 8, &n), b);
    CHECK(n == 1 && del[0] == victim);
    tess_diff_operation op;
    OK(tess_batch_operations(b, &op, 1, &n), b);
    CHECK(n == 1 && op.type == TESS_OP_REMOVE && op.a == victim && op.b == 1);
    int64_t gone = 0;
    FAILS(tess_engine_index_of(e, victim_id, &gone), e, TESS_ERROR_UNKNOWN_ID, "");
    OK(tess_engine_row_count(e, &n), e);
    CHECK(n == next.count - 1);
    OK(tess_engine_get_swipe(e, &open, &open_id, &edge, &open_width), e);
    CHECK(open == 0); /* cell_b scrolled out of the viewport and closed */
    /* the model follows */
    memmove(next.ids + victim, next.ids + victim + 1, sizeof(uint64_t) * (size_t)(next.count - victim - 1));
    memmove(next.kinds + victim, next.kinds + victim + 1, sizeof(uint16_t) * (size_t)(next.count - victim - 1));
    memmove(next.versions + victim, next.versions + victim + 1, sizeof(uint64_t) * (size_t)(next.count - victim - 1));
    next.count--;
    pe_check_rows(e, &next, NULL);
    OK(tess_engine_close_swipe(e, &changed), e);
    CHECK(changed == 0);

    /* ---- Selection (edit mode, selectable kinds) ---- */
    /* Group 1's selection rows (ids 1101, 1102 single; 1103, 1104 multiple). */
    uint64_t one = 1101, two = 1102, m1 = 1103, m2 = 1104;
    int64_t one_row = pe_row_of(e, one), two_row = pe_row_of(e, two);
    CHECK(two_row == one_row + 1);
    FAILS(tess_engine_select(e, one, &changed), e, TESS_ERROR_NOT_ALLOWED, "edit mode");
    OK(tess_engine_set_edit_mode(e, 1, &y), e);
    FAILS(tess_engine_swipe(e, cell_a, TESS_SWIPE_TRAILING, 80, &changed), e, TESS_ERROR_NOT_ALLOWED, "edit mode");
    FAILS(tess_engine_select(e, next.ids[5], &changed), e, TESS_ERROR_NOT_ALLOWED, "not selectable");
    FAILS(tess_engine_select(e, 424242, &changed), e, TESS_ERROR_UNKNOWN_ID, "424242");
    FAILS(tess_engine_deselect(e, 424242, &changed), e, TESS_ERROR_UNKNOWN_ID, "424242");
    OK(tess_engine_select(e, one, &changed), e);
    CHECK(changed == 1 && (pe_flags(e, one_row) & TESS_ROW_SELECTED));
    OK(tess_engine_select(e, two, &changed), e); /* single selection: `one` is deselected */
    CHECK(changed == 2 && !(pe_flags(e, one_row) & TESS_ROW_SELECTED) && (pe_flags(e, two_row) & TESS_ROW_SELECTED));
    uint64_t sel[8];
    OK(tess_engine_selection(e, sel, 8, &n), e);
    CHECK(n == 1 && sel[0] == two);
    uint64_t three[3] = {m2, two, m1};
    OK(tess_engine_set_selection(e, three, 3, &changed), e);
    CHECK(changed == 2);
    OK(tess_engine_selection(e, sel, 8, &n), e);
    CHECK(n == 3 && sel[0] == two && sel[1] == m1 && sel[2] == m2); /* row order */
    FAILS(tess_engine_selection(e, sel, 2, &n), e, TESS_ERROR_BUFFER_TOO_SMALL, "ids");
    CHECK(n == 3);
    before = pe_take(e);
    uint64_t both[2] = {one, two};
    FAILS(tess_engine_set_selection(e, both, 2, &changed), e, TESS_ERROR_RULE_VIOLATION, "");
    uint64_t unknown_ids[2] = {m1, 424242};
    FAILS(tess_engine_set_selection(e, unknown_ids, 2, &changed), e, TESS_ERROR_UNKNOWN_ID, "424242");
    FAILS(tess_engine_set_selection(e, NULL, 2, &changed), e, TESS_ERROR_NULL_ARGUMENT, "ids");
    FAILS(tess_engine_set_selection(e, both, -2, &changed), e, TESS_ERROR_INVALID_ARGUMENT, "count -2");
    CHECK(pe_same(before, pe_take(e)));
    OK(tess_engine_deselect(e, m1, &changed), e);
    CHECK(changed == 1);
    OK(tess_engine_deselect(e, m1, &changed), e);
    CHECK(changed == 0);
    OK(tess_engine_clear_selection(e, &changed), e);
    CHECK(changed == 2);
    OK(tess_engine_selection(e, NULL, 0, &n), e);
    CHECK(n == 0);
    OK(tess_engine_set_edit_mode(e, 0, &y), e);

    /* ---- Unread ---- */
    int64_t new_group = pe_row_of(e, 500000);
    OK(tess_engine_mark_viewed(e, new_group, 5, &changed), e);
    CHECK(changed == 5 && !(pe_flags(e, new_group + 4) & TESS_ROW_UNREAD) && (pe_flags(e, new_group + 5) & TESS_ROW_UNREAD));
    OK(tess_engine_changed_rows(e, refs, 8, &n), e);
    CHECK(n == 5 && refs[0].row == new_group && refs[0].id == 500000);
    OK(tess_engine_mark_viewed(e, new_group, 5, &changed), e);
    CHECK(changed == 0);
    double at = 0;
    OK(tess_engine_offset_of_row(e, new_group + 5, &at), e);
    OK(tess_engine_scroll_to(e, at, &y), e);
    OK(tess_engine_mark_visible_viewed(e, &changed), e);
    CHECK(changed > 0 && !(pe_flags(e, new_group + 5) & TESS_ROW_UNREAD));
    before = pe_take(e);
    FAILS(tess_engine_mark_viewed(e, -1, 2, &changed), e, TESS_ERROR_OUT_OF_RANGE, "rows -1");
    FAILS(tess_engine_mark_viewed(e, 0, -2, &changed), e, TESS_ERROR_INVALID_ARGUMENT, "count -2");
    FAILS(tess_engine_mark_viewed(e, next.count - 1, 2, &changed), e, TESS_ERROR_OUT_OF_RANGE, "out of bounds");
    CHECK(pe_same(before, pe_take(e)));
    /* NULL handles of the interaction calls. */
    FAILS(tess_engine_changed_rows(NULL, refs, 8, &n), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_swipe(NULL, 1, 0, 1, NULL), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_close_swipe(NULL, NULL), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_get_swipe(NULL, &open, NULL, NULL, NULL), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_commit_swipe(NULL, 1, NULL, NULL), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_select(NULL, 1, NULL), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_deselect(NULL, 1, NULL), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_set_selection(NULL, NULL, 0, NULL), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_clear_selection(NULL, NULL), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_selection(NULL, sel, 8, &n), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_mark_viewed(NULL, 0, 0, NULL), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    FAILS(tess_engine_mark_visible_viewed(NULL, NULL), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    /* Selection needs a profile; swipe works on a store-driven engine. */
    uint64_t pids[2] = {1, 2};
    uint16_t pkinds[2] = {0, 1};
    OK(tess_engine_append_rows(plain, pids, pkinds, NULL, 2, NULL, &y), plain);
    FAILS(tess_engine_select(plain, 1, &changed), plain, TESS_ERROR_INVALID_ARGUMENT, "profile");
    OK(tess_engine_swipe(plain, 2, TESS_SWIPE_TRAILING, 1000, &changed), plain);
    OK(tess_engine_commit_swipe(plain, 2, NULL, &y), plain);
    OK(tess_engine_row_count(plain, &n), plain);
    CHECK(n == 1);

    /* ---- Content updates in place, by id ---- */
    int64_t target = -1;
    for (int64_t r = 0; r < next.count && target < 0; r++) {
        char label[16];
        int64_t llen = 0;
        if (next.kinds[r] != pe_basic) continue;
        OK(tess_engine_row_text(e, r, 2, label, sizeof label, &llen), e);
        if (llen == 1 && label[0] == 'x' && !(pe_flags(e, r) & TESS_ROW_SWIPE_OPEN)) target = r;
    }
    CHECK(target > 0);
    uint64_t target_id = next.ids[target];
    tess_row_info old_info;
    OK(tess_engine_get_row(e, target, &old_info), e);
    CHECK(old_info.height == 44);
    const char *seven[PE_SLOTS] = {"1", NULL, "a\na", "x", NULL, NULL, NULL, NULL, NULL, "1"};
    pe_rows upd = {0};
    pe_add(&upd, target_id, pe_basic, 9, seven);
    tess_text_columns ut = pe_text(&upd);
    tess_snapshot now = {next.ids, next.kinds, next.versions, next.count, NULL, NULL, NULL};
    OK(tess_engine_prepare(e, &now, b2), e); /* made stale by the update below */
    OK(tess_engine_update_rows(e, upd.ids, upd.versions, 1, &ut, &y), e);
    uint64_t version = 0;
    OK(tess_engine_row_version(e, target, &version), e);
    tess_row_info new_info;
    OK(tess_engine_get_row(e, target, &new_info), e);
    CHECK(version == 9 && new_info.id == target_id && new_info.kind == pe_basic && new_info.height == 44 &&
          (new_info.flags & TESS_ROW_DIRTY));
    OK(tess_engine_dirty_count(e, &dirty), e);
    CHECK(dirty == 1);
    OK(tess_engine_measure(e, TESS_BUDGET_ROWS, 10, &p), e);
    OK(tess_engine_get_row(e, target, &new_info), e);
    CHECK(p.measured == 1 && new_info.height == 82 && !(new_info.flags & TESS_ROW_DIRTY)); /* example 7 */
    char got_label[16];
    OK(tess_engine_row_text(e, target, 2, got_label, sizeof got_label, &len), e);
    CHECK(len == 3 && memcmp(got_label, "a\na", 3) == 0);
    FAILS(tess_engine_apply_prepared(e, b2, &y), e, TESS_ERROR_STALE_BATCH, "changed");
    /* Bad input: unknown and repeated ids, broken rules, bad text; nothing changes. */
    before = pe_take(e);
    uint64_t two_ids[2] = {target_id, target_id}, two_versions[2] = {3, 4};
    FAILS(tess_engine_update_rows(e, two_ids, two_versions, 2, NULL, &y), e, TESS_ERROR_DUPLICATE_ID, "");
    uint64_t missing_id = 424242;
    FAILS(tess_engine_update_rows(e, &missing_id, two_versions, 1, &ut, &y), e, TESS_ERROR_UNKNOWN_ID, "424242");
    FAILS(tess_engine_update_rows(e, upd.ids, two_versions, 1, NULL, &y), e, TESS_ERROR_RULE_VIOLATION, "label");
    int64_t lstart = upd.offsets[2];
    upd.offsets[3] = lstart; /* the label emptied: its bytes join the sub-line */
    FAILS(tess_engine_update_rows(e, upd.ids, upd.versions, 1, &ut, &y), e, TESS_ERROR_RULE_VIOLATION, "label");
    upd.offsets[3] = lstart + 3;
    upd.utf8[lstart] = (char)0xed; /* a surrogate's lead byte */
    FAILS(tess_engine_update_rows(e, upd.ids, upd.versions, 1, &ut, &y), e, TESS_ERROR_INVALID_UTF8, "");
    upd.utf8[lstart] = 'a';
    ut.byte_count = 2;
    FAILS(tess_engine_update_rows(e, upd.ids, upd.versions, 1, &ut, &y), e, TESS_ERROR_INVALID_TEXT_OFFSETS, "");
    ut = pe_text(&upd);
    FAILS(tess_engine_update_rows(e, upd.ids, NULL, 1, &ut, &y), e, TESS_ERROR_NULL_ARGUMENT, "versions");
    FAILS(tess_engine_update_rows(e, NULL, upd.versions, 1, &ut, &y), e, TESS_ERROR_NULL_ARGUMENT, "ids");
    FAILS(tess_engine_update_rows(e, upd.ids, upd.versions, -1, &ut, &y), e, TESS_ERROR_INVALID_ARGUMENT, "count -1");
    FAILS(tess_engine_update_rows(NULL, upd.ids, upd.versions, 1, &ut, &y), NULL, TESS_ERROR_NULL_ARGUMENT, "engine");
    CHECK(pe_same(before, pe_take(e)));
    OK(tess_engine_update_rows(e, NULL, NULL, 0, NULL, &y), e);
    CHECK(pe_same(before, pe_take(e)));
    /* A store-driven engine: the updated row returns to its kind's estimate. */
    double measured_height = 61.5;
    OK(tess_engine_set_heights(plain, 0, &measured_height, 1, &y), plain);
    const char plain_utf8[] = "new";
    int64_t plain_offsets[2] = {0, 3};
    tess_text_columns plain_text = {plain_utf8, 3, plain_offsets, 1};
    uint64_t plain_id = 1, plain_version = 5;
    OK(tess_engine_update_rows(plain, &plain_id, &plain_version, 1, &plain_text, &y), plain);
    OK(tess_engine_get_row(plain, 0, &new_info), plain);
    OK(tess_engine_row_version(plain, 0, &version), plain);
    OK(tess_engine_row_text(plain, 0, 0, got_label, sizeof got_label, &len), plain);
    CHECK(new_info.height == estimates[0] && !(new_info.flags & TESS_ROW_MEASURED) && version == 5 && len == 3 &&
          memcmp(got_label, "new", 3) == 0);
    pe_free(&upd);

    tess_batch_destroy(b);
    tess_batch_destroy(b2);
    tess_batch_destroy(NULL);
    tess_engine_destroy(other);
    tess_engine_destroy(plain);
    tess_engine_destroy(e);
    tess_profile_destroy(george);
    free(want);
    pe_free(&rows);
    pe_free(&next);
    pe_free(&extra);
}

/* ===================================================================================== */
/* Benchmark mode: the 1M-row append and window queries through the C ABI                 */
/* ===================================================================================== */

/* The JNI host's profile-driven session through the C ABI, timed the same way: `rows`
 * George rows (a sectionHeader every 50, basic cells labelled "Payment <id>", 5 values) on
 * Android at 360 pt appended in one call, measured on two threads, then item windows after
 * a scroll, at scrolling and at random offsets. */
static int bench_profiled(int64_t rows) {
    char path[1024];
    snprintf(path, sizeof path, "%s/Profiles/george.json", repo);
    tess_profile_t *george = NULL;
    OK(tess_profile_load_path(path, (int64_t)strlen(path), NULL, 0, &george), NULL);
    uint64_t *ids = malloc(sizeof(uint64_t) * (size_t)rows), *versions = malloc(sizeof(uint64_t) * (size_t)rows);
    uint16_t *kinds = malloc(sizeof(uint16_t) * (size_t)rows);
    int64_t *offsets = malloc(sizeof(int64_t) * (size_t)(rows * 5 + 1));
    char *utf8 = malloc((size_t)rows * 24);
    int64_t at = 0;
    offsets[0] = 0;
    for (int64_t i = 0; i < rows; i++) {
        ids[i] = 7 * (uint64_t)i + 5;
        versions[i] = 1;
        kinds[i] = i % 50 == 0 ? 13 : 1;
        for (int slot = 0; slot < 5; slot++) {
            if (kinds[i] == 13 && slot == 3) at += sprintf(utf8 + at, "Day %llu", (unsigned long long)ids[i]);
            if (kinds[i] == 1 && slot == 2) at += sprintf(utf8 + at, "Payment %llu", (unsigned long long)ids[i]);
            offsets[i * 5 + slot + 1] = at;
        }
    }
    tess_text_columns text = {utf8, at, offsets, 5};
    tess_environment android = {360, TESS_PLATFORM_ANDROID, 0, 1};
    tess_engine_t *e = NULL;
    OK(tess_engine_create_with_profile(george, &android, NULL, 800, 250, NULL, &e), NULL);
    double t0 = now_seconds();
    OK(tess_engine_append_rows(e, ids, kinds, versions, rows, &text, NULL), e);
    double append = now_seconds() - t0;
    t0 = now_seconds();
    OK(tess_engine_measure_all(e, 2, NULL), e);
    double measure = now_seconds() - t0;
    double total = 0, y = 0;
    OK(tess_engine_total_height(e, &total), e);
    tess_visible_item items[512], sticky;
    int32_t has = 0;
    int64_t n = 0, sum = 0, queries = 100000;
    double best_scroll = 1e9, best_random = 1e9;
    for (int round = 0; round < 5; round++) {
        t0 = now_seconds();
        for (int64_t q = 0; q < queries; q++) {
            tess_engine_scroll_to(e, fmod((double)q * 37.5, total - 800), &y);
            tess_engine_items(e, items, 512, &n, &sticky, &has);
            sum += n;
        }
        double t = (now_seconds() - t0) / (double)queries;
        if (t < best_scroll) best_scroll = t;
        t0 = now_seconds();
        for (int64_t q = 0; q < queries; q++) {
            tess_engine_scroll_to(e, (double)random_below((int64_t)(total - 800)), &y);
            tess_engine_items(e, items, 512, &n, &sticky, &has);
            sum += n;
        }
        t = (now_seconds() - t0) / (double)queries;
        if (t < best_random) best_random = t;
    }
    printf("{\"suite\": \"c-abi-profiled\", \"rows\": %lld, \"append_ms\": %.1f, \"measure_all_2_threads_ms\": %.1f, "
           "\"items_scroll_ns\": %.1f, \"items_random_ns\": %.1f, \"checksum\": %lld}\n",
           (long long)rows, append * 1e3, measure * 1e3, best_scroll * 1e9, best_random * 1e9, (long long)sum);
    tess_engine_destroy(e);
    tess_profile_destroy(george);
    free(ids);
    free(versions);
    free(kinds);
    free(offsets);
    free(utf8);
    return failures ? 1 : 0;
}

static int bench(int64_t rows) {
    uint64_t *ids = malloc(sizeof(uint64_t) * (size_t)rows);
    uint16_t *kinds = malloc(sizeof(uint16_t) * (size_t)rows);
    double *heights = malloc(sizeof(double) * (size_t)rows);
    for (int64_t i = 0; i < rows; i++) {
        ids[i] = (uint64_t)i * 2654435761u + 1;
        kinds[i] = (uint16_t)(i % 3);
        heights[i] = 40 + (double)(i % 50);
    }
    double best_append = 1e9;
    tess_engine_t *e = NULL;
    for (int round = 0; round < 5; round++) {
        if (e) tess_engine_destroy(e);
        OK(tess_engine_create(estimates, 3, 844, &e), NULL);
        double t0 = now_seconds();
        OK(tess_engine_append(e, ids, kinds, heights, rows, NULL, NULL), e);
        double t = now_seconds() - t0;
        if (t < best_append) best_append = t;
    }
    double total = 0;
    OK(tess_engine_total_height(e, &total), e);
    tess_visible_row buffer[256];
    int64_t n = 0, queries = 200000, sum = 0;
    double best_scroll = 1e9, best_random = 1e9;
    for (int round = 0; round < 5; round++) {
        double t0 = now_seconds();
        for (int64_t q = 0; q < queries; q++) {
            double offset = fmod((double)q * 37.5, total - 844);
            tess_engine_window_at(e, offset, 844, 250, 250, buffer, 256, &n);
            sum += n;
        }
        double t = (now_seconds() - t0) / (double)queries;
        if (t < best_scroll) best_scroll = t;
        t0 = now_seconds();
        for (int64_t q = 0; q < queries; q++) {
            double offset = (double)random_below((int64_t)(total - 844));
            tess_engine_window_at(e, offset, 844, 250, 250, buffer, 256, &n);
            sum += n;
        }
        t = (now_seconds() - t0) / (double)queries;
        if (t < best_random) best_random = t;
    }
    printf("{\"suite\": \"c-abi\", \"rows\": %lld, \"append_ns_per_row\": %.2f, \"window_scroll_ns\": %.1f, "
           "\"window_random_ns\": %.1f, \"checksum\": %lld}\n",
           (long long)rows, best_append * 1e9 / (double)rows, best_scroll * 1e9, best_random * 1e9, (long long)sum);
    tess_engine_destroy(e);
    free(ids);
    free(kinds);
    free(heights);
    return bench_profiled(rows) || failures ? 1 : 0;
}

int main(int argc, char **argv) {
    if (argc > 1) repo = argv[1];
    if (argc > 3 && strcmp(argv[2], "--bench") == 0) return bench(atoll(argv[3]));
    test_version();
    test_engine_model();
    test_engine_text_and_errors();
    test_diff();
    test_text();
    test_profiles();
    test_profile_engine();
    printf("c-host: %d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
