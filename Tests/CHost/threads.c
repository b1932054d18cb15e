/*
 * Two handles from two threads at once give the same answers as one after the other.
 *
 * A session builds its own engine (20,000 rows with text, inserts, removals, measured
 * heights, 2,000 windows), text engine and measurer (sharing one font and one profile with
 * the other session: both are immutable and shareable), a differ, and a profile-driven
 * engine over the shared profile (measured, windows, a snapshot, a full swipe), and folds every answer
 * into a digest. Sessions 1 and 2 run sequentially, then together on two threads started
 * at a barrier, several times; the digests must match. Each thread also fails a call
 * without a handle and must read its own message from tess_last_error(NULL), whatever the
 * other thread did meanwhile. Built once plainly and once against a ThreadSanitizer build
 * of the library (make c-threads, make tsan).
 *
 * Usage: threads <repo root>
 */
#define _POSIX_C_SOURCE 200809L
#include "tessera.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROBOTO "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf"

static tess_font_t *font = NULL;
static tess_profile_t *profile = NULL;
static int failures = 0;
static pthread_mutex_t failure_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t barrier;
static int use_barrier = 0;

static void fail(const char *what, const void *handle) {
    pthread_mutex_lock(&failure_lock);
    failures++;
    fprintf(stderr, "threads: %s: %s\n", what, tess_last_error(handle));
    pthread_mutex_unlock(&failure_lock);
}

#define MUST(call, handle)                    \
    do {                                      \
        if ((call) != TESS_OK) fail(#call, handle); \
    } while (0)

typedef struct digest {
    uint64_t h;
} digest;

static void mix(digest *d, const void *bytes, size_t n) {
    const uint8_t *p = bytes;
    for (size_t i = 0; i < n; i++) d->h = (d->h ^ p[i]) * 1099511628211ull;
}

static void mix_double(digest *d, double x) { mix(d, &x, sizeof x); }
static void mix_int(digest *d, int64_t x) { mix(d, &x, sizeof x); }

typedef struct session_args {
    int seed;
    uint64_t result;
} session_args;

static void *session(void *argument) {
    session_args *a = argument;
    digest d = {1469598103934665603ull};
    uint64_t rng = 0x9E3779B97F4A7C15ull * (uint64_t)a->seed;
#define NEXT() (rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17, rng)

    if (use_barrier) pthread_barrier_wait(&barrier);

    /* A failure without a handle: this thread's message, not the other's. */
    tess_engine_t *none = NULL;
    const double est[3] = {56, 72, 44};
    tess_status s = a->seed == 1 ? tess_engine_create(est, -1, 100, &none)
                                 : tess_font_load_path("/nonexistent.ttf", 16, 0, (tess_font_t **)(void *)&none);
    if (s == TESS_OK) fail("a bad create succeeded", NULL);

    /* Engine. */
    tess_engine_t *e = NULL;
    MUST(tess_engine_create(est, 3, 844, &e), NULL);
    enum { ROWS = 20000 };
    static _Thread_local uint64_t ids[ROWS];
    static _Thread_local uint16_t kinds[ROWS];
    static _Thread_local char utf8[ROWS * 16];
    static _Thread_local int64_t offsets[ROWS + 1];
    int64_t at = 0;
    offsets[0] = 0;
    for (int i = 0; i < ROWS; i++) {
        ids[i] = (uint64_t)a->seed * 1000000 + (uint64_t)i;
        kinds[i] = (uint16_t)(NEXT() % 3);
        at += snprintf(utf8 + at, 16, "row %d", i);
        offsets[i + 1] = at;
    }
    tess_text_columns text = {utf8, at, offsets, 1};
    double y;
    MUST(tess_engine_append(e, ids, kinds, NULL, ROWS, &text, &y), e);
    MUST(tess_engine_scroll_to(e, 100000, &y), e);
    mix_double(&d, y);
    for (int i = 0; i < 200; i++) {
        int64_t count;
        MUST(tess_engine_row_count(e, &count), e);
        int64_t r = (int64_t)(NEXT() % (uint64_t)count);
        double h = (double)(NEXT() % 4000) / 16;
        MUST(tess_engine_set_heights(e, r, &h, 1, &y), e);
        mix_double(&d, y);
        if (i % 10 == 0) {
            MUST(tess_engine_remove(e, r, 1, &y), e);
            mix_double(&d, y);
            uint64_t id = (uint64_t)a->seed * 1000000 + ROWS + (uint64_t)i;
            uint16_t kind = 1;
            MUST(tess_engine_insert(e, r / 2, &id, &kind, NULL, 1, NULL, &y), e);
            mix_double(&d, y);
        }
    }
    double total;
    MUST(tess_engine_total_height(e, &total), e);
    mix_double(&d, total);
    tess_visible_row rows[128];
    for (int i = 0; i < 2000; i++) {
        int64_t n = 0;
        double offset = (double)(NEXT() % (uint64_t)total);
        MUST(tess_engine_window_at(e, offset, 844, 100, 100, rows, 128, &n), e);
        for (int64_t k = 0; k < n; k++) {
            mix_int(&d, rows[k].row);
            mix_int(&d, (int64_t)rows[k].id);
            mix_double(&d, rows[k].y);
            mix_double(&d, rows[k].height);
        }
    }
    char buffer[32];
    int64_t length;
    MUST(tess_engine_row_text(e, 12345, 0, buffer, sizeof buffer, &length), e);
    mix(&d, buffer, (size_t)length);

    /* Text: its own engine and style over the shared font. */
    tess_text_engine_t *t = NULL;
    tess_text_style_t *style = NULL;
    const tess_font_t *fonts[1] = {font};
    MUST(tess_text_engine_create(NULL, &t), NULL);
    MUST(tess_text_style_create(fonts, 1, 15, 0, 0, &style), NULL);
    for (int i = 0; i < 300; i++) {
        char sample[96];
        int n = snprintf(sample, sizeof sample, "Payment %d to account %llu, reference %d", i,
                         (unsigned long long)(NEXT() % 100000000), a->seed);
        tess_text_metrics m;
        MUST(tess_text_measure(t, style, sample, n, 80 + (double)(i % 200), 0, &m), t);
        mix_int(&d, m.line_count);
        mix_double(&d, m.height);
        mix_double(&d, m.width);
    }

    /* A measurer over the shared profile. */
    tess_environment env = {375, TESS_PLATFORM_IOS, 0, 1};
    tess_measurer_t *m = NULL;
    MUST(tess_measurer_create(profile, &env, t, &m), NULL);
    int64_t kind_count = 0;
    MUST(tess_profile_kind_count(profile, &kind_count), profile);
    for (int64_t k = 0; k < kind_count; k++) {
        tess_kind_info info;
        MUST(tess_profile_kind_info(profile, k, &info), profile);
        /* Every value "x" except images and stacks, which stay empty: some rows break
         * rules, which the digest records as statuses. */
        char values[256];
        int64_t slot_offsets[64];
        int64_t p = 0;
        slot_offsets[0] = 0;
        for (int v = 0; v < info.value_count && v < 60; v++) {
            if (v % 3 == 0) values[p++] = 'x';
            slot_offsets[v + 1] = p;
        }
        tess_text_columns row = {values, p, slot_offsets, info.value_count < 60 ? info.value_count : 60};
        double h = -1;
        s = tess_measurer_heights(m, &info.code, 1, &row, &h, 1);
        mix_int(&d, s);
        mix_double(&d, h);
    }

    /* Diff. */
    tess_differ_t *df = NULL;
    MUST(tess_differ_create(&df), NULL);
    static _Thread_local uint64_t old_v[ROWS], new_ids[ROWS], new_v[ROWS];
    int64_t nn = 0;
    for (int i = 0; i < ROWS; i++) {
        old_v[i] = 0;
        if (NEXT() % 10) {
            new_ids[nn] = ids[i];
            new_v[nn++] = NEXT() % 20 == 0;
        }
    }
    tess_diff_counts c;
    MUST(tess_differ_diff(df, ids, old_v, ROWS, new_ids, new_v, nn, &c), df);
    mix(&d, &c, sizeof c);
    static _Thread_local tess_diff_operation ops[ROWS * 2];
    int64_t n_ops = 0;
    MUST(tess_differ_operations(df, ops, ROWS * 2, &n_ops), df);
    mix(&d, ops, sizeof(tess_diff_operation) * (size_t)n_ops);

    /* A profile-driven engine over the shared profile (ABI version 2): George rows, measured
     * (a budget, then the rest on this thread), windows of items, a snapshot applied, a swipe
     * committed, a selection in edit mode. */
    {
        enum { PROWS = 600, SLOTS = 10 };
        static _Thread_local uint64_t pids[PROWS], pversions[PROWS];
        static _Thread_local uint16_t pkinds[PROWS];
        static _Thread_local char putf8[PROWS * 16];
        static _Thread_local int64_t poffsets[PROWS * SLOTS + 1];
        int64_t at = 0;
        poffsets[0] = 0;
        for (int i = 0; i < PROWS; i++) {
            pids[i] = (uint64_t)a->seed * 100000 + (uint64_t)i;
            pkinds[i] = i % 12 == 0 ? 13 : 1; /* george.json: sectionHeader, basicCell */
            pversions[i] = 1;
            for (int slot = 0; slot < SLOTS; slot++) {
                if ((pkinds[i] == 13 && slot == 3) || (pkinds[i] == 1 && slot == 2))
                    at += snprintf(putf8 + at, 16, "w%d %llu", a->seed, (unsigned long long)(NEXT() % 100000));
                poffsets[i * SLOTS + slot + 1] = at;
            }
        }
        tess_environment env = {a->seed == 1 ? 375 : 360, a->seed == 1 ? TESS_PLATFORM_IOS : TESS_PLATFORM_ANDROID, 0, 1};
        tess_engine_t *pe = NULL;
        MUST(tess_engine_create_with_profile(profile, &env, NULL, 700, 100, NULL, &pe), NULL);
        tess_text_columns ptext = {putf8, at, poffsets, SLOTS};
        double y = 0;
        MUST(tess_engine_append_rows(pe, pids, pkinds, pversions, PROWS, &ptext, &y), pe);
        tess_measure_progress progress;
        MUST(tess_engine_measure(pe, TESS_BUDGET_ROWS, 50, &progress), pe);
        mix(&d, &progress, sizeof progress);
        MUST(tess_engine_measure_all(pe, 1, &y), pe);
        static _Thread_local tess_visible_item items[128];
        tess_visible_item sticky;
        int32_t has = 0;
        int64_t n = 0;
        for (int w = 0; w < 200; w++) {
            MUST(tess_engine_scroll_to(pe, (double)(NEXT() % 20000), &y), pe);
            MUST(tess_engine_items(pe, items, 128, &n, &sticky, &has), pe);
            mix(&d, items, sizeof(tess_visible_item) * (size_t)n);
            mix(&d, &sticky, sizeof sticky);
        }
        for (int i = 0; i < PROWS; i++)
            if (pkinds[i] == 1 && NEXT() % 7 == 0) pversions[i] = 2;
        tess_batch_t *b = NULL;
        MUST(tess_batch_create(&b), NULL);
        tess_snapshot snap = {pids, pkinds, pversions, PROWS - 5, &ptext, NULL, NULL};
        MUST(tess_engine_apply(pe, &snap, b, &y), pe);
        mix_double(&d, y);
        tess_diff_counts c2;
        MUST(tess_batch_get_counts(b, &c2), b);
        mix(&d, &c2, sizeof c2);
        MUST(tess_engine_measure_all(pe, 1, &y), pe);
        int64_t changed = 0;
        MUST(tess_engine_scroll_to(pe, 0, &y), pe);
        MUST(tess_engine_swipe(pe, pids[3], TESS_SWIPE_TRAILING, 80, &changed), pe);
        MUST(tess_engine_commit_swipe(pe, pids[3], b, &y), pe);
        mix_double(&d, y);
        double total = 0;
        MUST(tess_engine_total_height(pe, &total), pe);
        mix_double(&d, total);
        tess_batch_destroy(b);
        tess_engine_destroy(pe);
    }

    /* The message of this thread's failure is still this thread's. */
    const char *message = tess_last_error(NULL);
    if (strstr(message, a->seed == 1 ? "tess_engine_create: kind_count" : "tess_font_load_path: path") != message)
        fail("the per-thread message belongs to another call", NULL);

    tess_differ_destroy(df);
    tess_measurer_destroy(m);
    tess_text_style_destroy(style);
    tess_text_engine_destroy(t);
    tess_engine_destroy(e);
    a->result = d.h;
    return NULL;
}

int main(int argc, char **argv) {
    const char *repo = argc > 1 ? argv[1] : ".";
    char path[1024];
    snprintf(path, sizeof path, "%s/Profiles/george.json", repo);
    MUST(tess_font_load_path(ROBOTO, (int64_t)strlen(ROBOTO), 0, &font), NULL);
    MUST(tess_profile_load_path(path, (int64_t)strlen(path), NULL, 0, &profile), NULL);
    if (failures) return 1;

    session_args seq[2] = {{1, 0}, {2, 0}};
    session(&seq[0]);
    session(&seq[1]);
    if (seq[0].result == seq[1].result) fail("the two sessions should differ", NULL);

    pthread_barrier_init(&barrier, NULL, 2);
    use_barrier = 1;
    for (int round = 0; round < 3; round++) {
        session_args par[2] = {{1, 0}, {2, 0}};
        pthread_t threads[2];
        for (int i = 0; i < 2; i++) pthread_create(&threads[i], NULL, session, &par[i]);
        for (int i = 0; i < 2; i++) pthread_join(threads[i], NULL);
        for (int i = 0; i < 2; i++)
            if (par[i].result != seq[i].result) {
                fprintf(stderr, "threads: round %d session %d: %016llx in parallel, %016llx sequentially\n", round,
                        i + 1, (unsigned long long)par[i].result, (unsigned long long)seq[i].result);
                failures++;
            }
    }
    pthread_barrier_destroy(&barrier);
    tess_profile_destroy(profile);
    tess_font_destroy(font);
    printf("threads: 2 sessions x (1 sequential + 3 parallel rounds), %s\n", failures ? "FAILED" : "same answers");
    return failures ? 1 : 0;
}
