/*
 * libFuzzer driver for tessera.h: each input is a sequence of calls on a few live handles,
 * with arguments drawn mostly from invalid values (NULL, negative and huge counts, NaN and
 * infinities, garbage UTF-8, offsets past the buffer, unknown kinds, duplicate ids,
 * malformed font and profile bytes, callbacks answering NaN). Pointers are never lies: a
 * non-NULL array always holds the count it is passed with (a lie is the host's undefined
 * behaviour). Every call must return a known status, a failure must leave a message naming
 * its function, and a failed change to an engine must leave its row count and height as
 * they were; anything else traps. Built with ASan (and LSan): memory errors and leaks fail
 * the run too. Handles made by an input are destroyed at its end.
 *
 * TESS_FUZZ_REPO names the repository (for Profiles/george.json).
 */
#include "tessera.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__clang__)
#pragma clang diagnostic ignored "-Wnonnull"
#endif

#define ROBOTO "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf"

typedef struct input {
    const uint8_t *p;
    size_t n;
} input;

static uint8_t u8(input *in) {
    if (in->n == 0) return 0;
    in->n--;
    return *in->p++;
}

static uint64_t u64(input *in) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = v << 8 | u8(in);
    return v;
}

/* An integer argument: small values, boundaries, negatives. */
static int64_t i64(input *in) {
    static const int64_t special[] = {0, 1, 2, 3, -1, -2, 255, 256, 1000, 65535, 65536, 2147483647LL,
                                      2147483648LL, INT64_MAX, INT64_MIN, -1000, 7, 8, 10, 40};
    uint8_t k = u8(in);
    if (k < 160) return (int64_t)(k % 24);
    if (k < 240) return special[k % (sizeof special / sizeof *special)];
    return (int64_t)u64(in);
}

/* A count backing a real array: -8 ... 63 (negative values are errors, positive ones are
 * backed by that many elements). */
static int64_t count(input *in) {
    uint8_t k = u8(in);
    if (k >= 248) return -(int64_t)(k - 247);
    return (int64_t)(k % 64);
}

static double f64(input *in) {
    static const double special[] = {0, -0.0, 1, -1, 0.5, 844, 250, 56, 262143.984375, 262144, 1e300, -1e300,
                                     1e-300, 4.9e-324, 1e12};
    uint8_t k = u8(in);
    if (k < 100) return (double)(k % 50) * 13.25;
    if (k < 200) return special[k % (sizeof special / sizeof *special)];
    if (k < 220) return NAN;
    if (k < 235) return INFINITY;
    if (k < 245) return -INFINITY;
    uint64_t bits = u64(in);
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

static int chance(input *in, int percent) { return u8(in) % 100 < percent; }

/* A length for a buffer of `size` bytes: usually `size`, sometimes smaller or negative,
 * never larger (a larger one would be the host lying). */
static int64_t length_for(input *in, int64_t size) {
    if (!chance(in, 10)) return size;
    int64_t v = i64(in);
    return v < size ? v : size;
}

/* An array of `n` (>= 0) elements filled from the input, or NULL now and then. */
static void *array(input *in, int64_t n, size_t size, int null_percent) {
    if (chance(in, null_percent)) return NULL;
    size_t bytes = (size_t)(n > 0 ? n : 0) * size;
    uint8_t *a = malloc(bytes + 1);
    for (size_t i = 0; i < bytes; i++) a[i] = u8(in);
    return a;
}

#define CHECK(c)                                                                            \
    do {                                                                                    \
        if (!(c)) {                                                                         \
            fprintf(stderr, "fuzz_abi: invariant failed at %s:%d: %s\n", __FILE__, __LINE__, #c); \
            __builtin_trap();                                                               \
        }                                                                                   \
    } while (0)

/* The status is known; a failure has a message that names a tess_ function. */
static void checked(tess_status s, const void *handle) {
    CHECK(s >= TESS_OK && s <= TESS_ERROR_NOT_ALLOWED);
    CHECK(strcmp(tess_status_name(s), "UNKNOWN") != 0);
    if (s != TESS_OK) {
        const char *m = tess_last_error(handle);
        CHECK(m != NULL && strncmp(m, "tess_", 5) == 0);
    }
}

/* --- the measure callback ------------------------------------------------------------- */

static int callback_mode = 0;
static double fuzz_measure(void *context, const char *utf8, int64_t byte_count, int32_t face, double size) {
    (void)context;
    (void)face;
    (void)size;
    CHECK(utf8 != NULL && byte_count > 0);
    switch (callback_mode) {
    case 1: return NAN;
    case 2: return -1;
    case 3: return INFINITY;
    case 4: return 1e300;
    default: return (double)byte_count * 7.5;
    }
}

/* --- fixtures loaded once ------------------------------------------------------------- */

static char *roboto_bytes = NULL, *george_json = NULL;
static int64_t roboto_size = 0, george_size = 0;
static tess_font_t *roboto = NULL;
static tess_profile_t *george = NULL;

static char *slurp(const char *path, int64_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (fread(b, 1, (size_t)n, f) != (size_t)n) n = 0;
    fclose(f);
    *size = n;
    return b;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    const char *repo = getenv("TESS_FUZZ_REPO");
    char path[1024];
    snprintf(path, sizeof path, "%s/Profiles/george.json", repo ? repo : ".");
    george_json = slurp(path, &george_size);
    roboto_bytes = slurp(ROBOTO, &roboto_size);
    if (!george_json || !roboto_bytes) {
        fprintf(stderr, "fuzz_abi: set TESS_FUZZ_REPO; cannot read %s or %s\n", path, ROBOTO);
        exit(2);
    }
    if (tess_font_load_bytes(roboto_bytes, roboto_size, 0, &roboto) != TESS_OK ||
        tess_profile_load_path(path, (int64_t)strlen(path), NULL, 0, &george) != TESS_OK) {
        fprintf(stderr, "fuzz_abi: fixtures: %s\n", tess_last_error(NULL));
        exit(2);
    }
    return 0;
}

/* --- the handles of one input ----------------------------------------------------------- */

typedef struct state {
    tess_engine_t *engine[2];
    tess_differ_t *differ;
    tess_text_engine_t *text[2];
    tess_text_style_t *style;
    tess_font_t *font;
    tess_measurer_t *measurer;
    tess_batch_t *batch;
} state;

static void engine_snapshot(tess_engine_t *e, int64_t *rows, double *total) {
    *rows = -1;
    *total = -1;
    if (!e) return;
    CHECK(tess_engine_row_count(e, rows) == TESS_OK);
    CHECK(tess_engine_total_height(e, total) == TESS_OK);
}

/* Text columns for `rows` rows from the input: bytes (often invalid UTF-8) and offsets
 * (often out of order or past the buffer); the offsets array always holds rows * slots + 1
 * entries when slots is in range. Returns NULL now and then. */
typedef struct text_args {
    tess_text_columns columns;
    char *bytes;
    int64_t *offsets;
} text_args;

static tess_text_columns *make_text(input *in, int64_t rows, text_args *t) {
    memset(t, 0, sizeof *t);
    if (chance(in, 30)) return NULL;
    int64_t bytes = count(in);
    int64_t slots = chance(in, 90) ? (int64_t)(u8(in) % 12) : i64(in);
    t->bytes = array(in, bytes, 1, 5);
    int64_t entries = 1;
    if (slots >= 0 && slots <= 255 && rows > 0) entries = rows * slots + 1;
    t->offsets = chance(in, 5) ? NULL : malloc(sizeof(int64_t) * (size_t)entries);
    if (t->offsets) {
        int64_t at = 0;
        for (int64_t i = 0; i < entries; i++) {
            uint8_t k = u8(in);
            if (k < 200) at += k % 6; /* mostly well formed */
            else if (k < 230) at = i64(in);
            t->offsets[i] = at;
        }
    }
    t->columns.utf8 = t->bytes;
    t->columns.byte_count = chance(in, 90) ? bytes : i64(in);
    if (t->columns.byte_count > bytes && t->columns.byte_count > 0) t->columns.byte_count = bytes; /* no lies */
    t->columns.offsets = t->offsets;
    t->columns.slots_per_row = slots;
    return &t->columns;
}

static void free_text(text_args *t) {
    free(t->bytes);
    free(t->offsets);
}

static void step(input *in, state *st) {
    uint8_t op = u8(in);
    int which = u8(in) & 1;
    tess_engine_t *e = chance(in, 4) ? NULL : st->engine[which];
    int64_t n = 0, rows_before, rows_after;
    double total_before, total_after, d = 0;
    tess_status s;
    switch (op % 56) {
    case 0: { /* engine create */
        int64_t kinds = count(in);
        double *est = array(in, kinds, sizeof(double), 5);
        if (est && chance(in, 70))
            for (int64_t i = 0; i < kinds; i++) est[i] = (double)(u8(in) % 100);
        tess_engine_t *made = NULL;
        s = tess_engine_create(est, kinds, f64(in), chance(in, 3) ? NULL : &made);
        checked(s, NULL);
        CHECK((s == TESS_OK) == (made != NULL));
        if (made) {
            tess_engine_destroy(st->engine[which]);
            st->engine[which] = made;
        }
        free(est);
        break;
    }
    case 1:
    case 2: { /* append or insert */
        int64_t c = count(in), at = i64(in);
        uint64_t *ids = array(in, c, sizeof(uint64_t), 4);
        uint16_t *kinds = array(in, c, sizeof(uint16_t), 4);
        if (ids && chance(in, 60))
            for (int64_t i = 0; i < c; i++) ids[i] = u8(in); /* small ids: duplicates */
        if (kinds && chance(in, 70))
            for (int64_t i = 0; i < c; i++) kinds[i] = u8(in) % 4;
        double *heights = chance(in, 50) ? NULL : array(in, c, sizeof(double), 0);
        if (heights && chance(in, 60))
            for (int64_t i = 0; i < c; i++) heights[i] = (double)u8(in);
        text_args t;
        tess_text_columns *text = make_text(in, c, &t);
        engine_snapshot(e, &rows_before, &total_before);
        s = op % 56 == 1 ? tess_engine_append(e, ids, kinds, heights, c, text, chance(in, 50) ? &d : NULL)
                         : tess_engine_insert(e, at, ids, kinds, heights, c, text, &d);
        checked(s, e);
        engine_snapshot(e, &rows_after, &total_after);
        if (s != TESS_OK) CHECK(rows_after == rows_before && total_after == total_before);
        else if (e) CHECK(rows_after == rows_before + c);
        free(ids);
        free(kinds);
        free(heights);
        free_text(&t);
        break;
    }
    case 3: { /* remove */
        engine_snapshot(e, &rows_before, &total_before);
        s = tess_engine_remove(e, i64(in), i64(in), &d);
        checked(s, e);
        engine_snapshot(e, &rows_after, &total_after);
        if (s != TESS_OK) CHECK(rows_after == rows_before && total_after == total_before);
        break;
    }
    case 4: { /* set heights */
        int64_t c = count(in);
        double *h = array(in, c, sizeof(double), 5);
        if (h && chance(in, 60))
            for (int64_t i = 0; i < c; i++) h[i] = (double)u8(in) / 4;
        engine_snapshot(e, &rows_before, &total_before);
        s = tess_engine_set_heights(e, i64(in), h, c, &d);
        checked(s, e);
        engine_snapshot(e, &rows_after, &total_after);
        if (s != TESS_OK) CHECK(rows_after == rows_before && total_after == total_before);
        free(h);
        break;
    }
    case 5:
        engine_snapshot(e, &rows_before, &total_before);
        s = tess_engine_invalidate_height(e, i64(in), chance(in, 50) ? &d : NULL);
        checked(s, e);
        engine_snapshot(e, &rows_after, &total_after);
        if (s != TESS_OK) CHECK(total_after == total_before);
        break;
    case 6:
        checked(tess_engine_update_flags(e, i64(in), (uint16_t)u8(in), (uint16_t)u8(in)), e);
        break;
    case 7: {
        tess_row_info info;
        checked(tess_engine_get_row(e, i64(in), chance(in, 5) ? NULL : &info), e);
        break;
    }
    case 8: {
        int64_t cap = count(in);
        char *buffer = array(in, cap, 1, 10);
        s = tess_engine_row_text(e, i64(in), i64(in), buffer, cap, chance(in, 5) ? NULL : &n);
        checked(s, e);
        if (s == TESS_ERROR_BUFFER_TOO_SMALL) CHECK(n > cap);
        free(buffer);
        break;
    }
    case 9: {
        int64_t row;
        checked(tess_engine_index_of(e, u8(in), chance(in, 5) ? NULL : &row), e);
        break;
    }
    case 10:
        checked(tess_engine_offset_of_row(e, i64(in), chance(in, 5) ? NULL : &d), e);
        break;
    case 11: {
        int64_t row;
        double inside;
        checked(tess_engine_row_at_offset(e, f64(in), chance(in, 5) ? NULL : &row, chance(in, 50) ? &inside : NULL), e);
        break;
    }
    case 12:
        checked(tess_engine_scroll_to(e, f64(in), chance(in, 50) ? &d : NULL), e);
        break;
    case 13:
        checked(tess_engine_set_viewport(e, f64(in), chance(in, 50) ? &d : NULL), e);
        break;
    case 14: {
        int32_t has;
        uint64_t id;
        double inside;
        checked(tess_engine_get_anchor(e, chance(in, 5) ? NULL : &has, chance(in, 50) ? &id : NULL,
                                       chance(in, 50) ? &inside : NULL), e);
        checked(tess_engine_get_scroll_offset(e, chance(in, 5) ? NULL : &d), e);
        checked(tess_engine_max_scroll_offset(e, chance(in, 5) ? NULL : &d), e);
        checked(tess_engine_get_viewport(e, chance(in, 5) ? NULL : &d), e);
        break;
    }
    case 15:
        checked(tess_engine_scroll_offset_to_row(e, i64(in), (int32_t)i64(in), chance(in, 5) ? NULL : &d), e);
        break;
    case 16:
    case 17: { /* windows */
        int64_t cap = count(in);
        tess_visible_row *rows = array(in, cap, sizeof(tess_visible_row), 10);
        s = op % 56 == 16 ? tess_engine_window(e, f64(in), rows, cap, chance(in, 5) ? NULL : &n)
                          : tess_engine_window_at(e, f64(in), f64(in), f64(in), f64(in), rows, cap,
                                                  chance(in, 5) ? NULL : &n);
        checked(s, e);
        if (s == TESS_ERROR_BUFFER_TOO_SMALL) CHECK(n > cap);
        if (s == TESS_OK && rows)
            for (int64_t i = 1; i < n; i++) CHECK(rows[i].row == rows[i - 1].row + 1 && rows[i].y >= rows[i - 1].y);
        free(rows);
        break;
    }
    case 18: { /* diff */
        if (!st->differ) checked(tess_differ_create(&st->differ), NULL);
        int64_t a = count(in), b = count(in);
        uint64_t *ai = array(in, a, 8, 4), *av = array(in, a, 8, 4), *bi = array(in, b, 8, 4), *bv = array(in, b, 8, 4);
        if (ai && chance(in, 70))
            for (int64_t i = 0; i < a; i++) ai[i] = u8(in);
        if (bi && chance(in, 70))
            for (int64_t i = 0; i < b; i++) bi[i] = u8(in);
        tess_diff_counts c;
        tess_differ_t *df = chance(in, 4) ? NULL : st->differ;
        s = tess_differ_diff(df, ai, av, a, bi, bv, b, chance(in, 50) ? &c : NULL);
        checked(s, df);
        free(ai);
        free(av);
        free(bi);
        free(bv);
        break;
    }
    case 19: { /* read the diff */
        tess_differ_t *df = chance(in, 4) ? NULL : st->differ;
        int64_t cap = count(in);
        void *buffer = array(in, cap, sizeof(tess_diff_operation), 10);
        uint8_t what = u8(in) % 4;
        if (what == 0) s = tess_differ_indexes(df, (int32_t)i64(in), buffer, cap, chance(in, 5) ? NULL : &n);
        else if (what == 1) s = tess_differ_moves(df, buffer, cap, chance(in, 5) ? NULL : &n);
        else if (what == 2) s = tess_differ_operations(df, buffer, cap, chance(in, 5) ? NULL : &n);
        else {
            tess_diff_counts c;
            s = tess_differ_get_counts(df, chance(in, 5) ? NULL : &c);
        }
        checked(s, df);
        if (s == TESS_ERROR_BUFFER_TOO_SMALL) CHECK(n > cap);
        free(buffer);
        break;
    }
    case 20: { /* fonts from mutated bytes */
        int64_t size = roboto_size;
        char *bytes = malloc((size_t)size);
        memcpy(bytes, roboto_bytes, (size_t)size);
        for (int k = u8(in) % 16; k > 0; k--) {
            uint64_t at = u64(in) % (uint64_t)size;
            bytes[at] = (char)u8(in);
        }
        if (chance(in, 30)) size = (int64_t)(u64(in) % (uint64_t)size);
        tess_font_t *f = NULL;
        s = tess_font_load_bytes(chance(in, 3) ? NULL : bytes, length_for(in, size), i64(in) % 4, &f);
        checked(s, NULL);
        if (f) {
            tess_font_info info;
            checked(tess_font_get_info(f, &info), f);
            char text[16];
            for (int i = 0; i < 16; i++) text[i] = (char)u8(in);
            checked(tess_font_text_width(f, text, u8(in) % 17, f64(in), &d), f);
            tess_font_destroy(st->font);
            st->font = f;
        }
        free(bytes);
        break;
    }
    case 21: { /* fonts from whatever bytes the input has */
        int64_t size = count(in);
        char *bytes = array(in, size, 1, 5);
        tess_font_t *f = NULL;
        checked(tess_font_load_bytes(bytes, size, i64(in), &f), NULL);
        tess_font_destroy(f);
        free(bytes);
        break;
    }
    case 22: { /* paths */
        int64_t size = count(in);
        char *path = array(in, size, 1, 5);
        tess_font_t *f = NULL;
        tess_profile_t *p = NULL;
        checked(tess_font_load_path(path, size, i64(in), &f), NULL);
        checked(tess_profile_load_path(path, length_for(in, size), NULL, 0, &p), NULL);
        tess_font_destroy(f);
        tess_profile_destroy(p);
        free(path);
        break;
    }
    case 23: { /* profiles from mutated JSON, fonts looked up nowhere (the parser is the target) */
        int64_t size = george_size;
        char *json = malloc((size_t)size);
        memcpy(json, george_json, (size_t)size);
        for (int k = u8(in) % 8; k > 0; k--) {
            uint64_t at = u64(in) % (uint64_t)size;
            json[at] = (char)u8(in);
        }
        if (chance(in, 20)) size = (int64_t)(u64(in) % (uint64_t)size);
        tess_profile_t *p = NULL;
        const char *dirs = chance(in, 50) ? "/nonexistent" : "\xff";
        checked(tess_profile_load_bytes(json, length_for(in, size), dirs, length_for(in, (int64_t)strlen(dirs)), &p), NULL);
        tess_profile_destroy(p);
        free(json);
        break;
    }
    case 24: { /* profile queries on the fixture */
        tess_profile_t *p = chance(in, 5) ? NULL : george;
        int64_t cap = count(in);
        char *buffer = array(in, cap, 8, 10);
        tess_kind_info k;
        tess_slot_info sl;
        uint8_t what = u8(in) % 6;
        if (what == 0) s = tess_profile_kind_info(p, i64(in), chance(in, 5) ? NULL : &k);
        else if (what == 1) s = tess_profile_kind_name(p, i64(in), buffer, cap, chance(in, 5) ? NULL : &n);
        else if (what == 2) s = tess_profile_slot_info(p, i64(in), i64(in), chance(in, 5) ? NULL : &sl);
        else if (what == 3) s = tess_profile_slot_name(p, i64(in), i64(in), buffer, cap, chance(in, 5) ? NULL : &n);
        else if (what == 4) s = tess_profile_estimated_heights(p, (int32_t)i64(in), (double *)(void *)buffer, cap, &n);
        else s = tess_profile_get_name(p, buffer, cap, &n);
        checked(s, p);
        checked(tess_profile_kind_count(p, chance(in, 5) ? NULL : &n), p);
        free(buffer);
        break;
    }
    case 25: { /* text engines */
        tess_cache_budgets b = {i64(in), i64(in), i64(in)};
        if (chance(in, 60)) b.segment_bytes = b.prepared_text_bytes = b.line_break_bytes = (int64_t)(u8(in) % 4) << 12;
        tess_text_engine_t *t = NULL;
        if (which) s = tess_text_engine_create_with_callback(chance(in, 4) ? NULL : fuzz_measure, NULL,
                                                              (int32_t)(u8(in) % 3), chance(in, 30) ? NULL : &b, &t);
        else s = tess_text_engine_create(chance(in, 30) ? NULL : &b, chance(in, 3) ? NULL : &t);
        checked(s, NULL);
        if (t) {
            tess_text_engine_destroy(st->text[which]);
            st->text[which] = t;
        }
        break;
    }
    case 26: { /* styles */
        const tess_font_t *fonts[4] = {roboto, st->font ? st->font : roboto, chance(in, 20) ? NULL : roboto, roboto};
        tess_text_style_t *style = NULL;
        s = tess_text_style_create(chance(in, 3) ? NULL : fonts, i64(in) % 5, f64(in), chance(in, 50) ? 0 : f64(in),
                                   chance(in, 70) ? 0 : f64(in), &style);
        checked(s, NULL);
        if (style) {
            tess_text_style_destroy(st->style);
            st->style = style;
        }
        break;
    }
    case 27:
    case 28: { /* measure text */
        tess_text_engine_t *t = chance(in, 4) ? NULL : st->text[which];
        const tess_text_style_t *style = chance(in, 4) ? NULL : st->style;
        int64_t size = count(in);
        char *text = array(in, size, 1, 5);
        if (text && chance(in, 60))
            for (int64_t i = 0; i < size; i++) text[i] = " abcdefxy\n-N\xc3\xa9"[u8(in) % 14];
        callback_mode = chance(in, 80) ? 0 : u8(in) % 5;
        tess_text_metrics m;
        int64_t cap = count(in);
        tess_text_line *lines = array(in, cap, sizeof(tess_text_line), 10);
        if (op % 56 == 27)
            s = tess_text_measure(t, style, text, size, f64(in), i64(in), chance(in, 5) ? NULL : &m);
        else
            s = tess_text_measure_lines(t, style, text, size, f64(in), i64(in), lines, cap, chance(in, 5) ? NULL : &n,
                                        chance(in, 50) ? &m : NULL);
        checked(s, t);
        if (s == TESS_OK && op % 56 == 27) CHECK(m.line_count >= 0 && !(m.height < 0) && !isnan(m.width));
        if (callback_mode != 0 && which == 1 && s == TESS_OK) CHECK(m.width == m.width);
        free(text);
        free(lines);
        break;
    }
    case 29: { /* bulk text */
        tess_text_engine_t *t = chance(in, 4) ? NULL : st->text[which];
        int64_t texts = count(in) % 8, size = count(in);
        char *text = array(in, size, 1, 5);
        int64_t *offsets = array(in, texts > 0 ? texts + 1 : 1, sizeof(int64_t), 5);
        if (offsets && chance(in, 70))
            for (int64_t i = 0, at = 0; i <= (texts > 0 ? texts : 0); i++) offsets[i] = at += u8(in) % 4;
        int64_t cap = count(in) % 10;
        tess_text_metrics *results = array(in, cap, sizeof(tess_text_metrics), 10);
        callback_mode = chance(in, 80) ? 0 : u8(in) % 5;
        s = tess_text_measure_bulk(t, chance(in, 4) ? NULL : st->style, text, size, offsets, texts, f64(in),
                                   i64(in), 1 + u8(in) % 3, results, cap);
        checked(s, t);
        free(text);
        free(offsets);
        free(results);
        break;
    }
    case 30: {
        tess_text_engine_t *t = chance(in, 4) ? NULL : st->text[which];
        tess_text_statistics stats;
        checked(tess_text_engine_get_statistics(t, chance(in, 5) ? NULL : &stats), t);
        if (chance(in, 30)) checked(tess_text_engine_clear_caches(t), t);
        break;
    }
    case 31: { /* measurer */
        tess_environment env = {f64(in), (int32_t)(u8(in) % 3), (int32_t)(u8(in) % 3), f64(in)};
        if (chance(in, 60)) {
            env.width = 200 + u8(in);
            env.platform = u8(in) & 1;
            env.edit_mode = u8(in) & 1;
            env.font_scale = 1;
        }
        tess_measurer_t *m = NULL;
        s = tess_measurer_create(chance(in, 3) ? NULL : george, chance(in, 3) ? NULL : &env,
                                 chance(in, 50) ? NULL : st->text[1], &m);
        checked(s, NULL);
        if (m) {
            tess_measurer_destroy(st->measurer);
            st->measurer = m;
        }
        break;
    }
    case 32: {
        tess_measurer_t *m = chance(in, 4) ? NULL : st->measurer;
        tess_environment env = {f64(in), (int32_t)(u8(in) % 3), (int32_t)(u8(in) % 3), f64(in)};
        if (chance(in, 50)) env.width = 300, env.font_scale = 1.5;
        checked(tess_measurer_set_environment(m, chance(in, 4) ? NULL : &env), m);
        char name[12];
        for (int i = 0; i < 12; i++) name[i] = (char)u8(in);
        checked(tess_measurer_set_parameter(m, name, u8(in) % 13, i64(in)), m);
        tess_environment got;
        checked(tess_measurer_get_environment(m, chance(in, 5) ? NULL : &got), m);
        int64_t cap = count(in);
        char *buffer = array(in, cap, 1, 10);
        checked(tess_measurer_width_class(m, buffer, cap, chance(in, 5) ? NULL : &n), m);
        free(buffer);
        break;
    }
    case 33:
    case 34:
    case 35: { /* validate, heights, frames */
        tess_measurer_t *m = chance(in, 4) ? NULL : st->measurer;
        int64_t rows = op % 56 == 34 ? count(in) % 6 : 1;
        uint16_t *kinds = array(in, rows, sizeof(uint16_t), 4);
        if (kinds && chance(in, 80))
            for (int64_t i = 0; i < rows; i++) kinds[i] = (uint16_t)(u8(in) % 40);
        text_args t;
        tess_text_columns *text = make_text(in, rows, &t);
        int64_t cap = count(in);
        void *out = array(in, cap, sizeof(tess_element_frame), 10);
        callback_mode = chance(in, 85) ? 0 : u8(in) % 5;
        if (op % 56 == 33) s = tess_measurer_validate(m, kinds ? kinds[0] : 0, text, i64(in));
        else if (op % 56 == 34) s = tess_measurer_heights(m, kinds, rows, text, out, cap);
        else s = tess_measurer_frames(m, kinds ? kinds[0] : 0, text, out, cap, chance(in, 5) ? NULL : &n,
                                      chance(in, 50) ? &d : NULL, chance(in, 50) ? &d : NULL);
        checked(s, m);
        free(kinds);
        free(out);
        free_text(&t);
        break;
    }
    case 36: /* destroy and forget a handle */
        switch (u8(in) % 6) {
        case 0: tess_engine_destroy(st->engine[which]); st->engine[which] = NULL; break;
        case 1: tess_differ_destroy(st->differ); st->differ = NULL; break;
        case 2: tess_text_engine_destroy(st->text[which]); st->text[which] = NULL; break;
        case 3: tess_text_style_destroy(st->style); st->style = NULL; break;
        case 4: tess_measurer_destroy(st->measurer); st->measurer = NULL; break;
        default: tess_font_destroy(st->font); st->font = NULL; break;
        }
        break;
    case 37: { /* engine from the profile's estimates */
        double heights[512];
        s = tess_profile_estimated_heights(george, u8(in) & 1, heights, 512, &n);
        checked(s, george);
        tess_engine_t *made = NULL;
        if (s == TESS_OK) checked(tess_engine_create(heights, n, f64(in), &made), NULL);
        if (made) {
            tess_engine_destroy(st->engine[which]);
            st->engine[which] = made;
        }
        break;
    }
    /* --- ABI version 2: the profile-driven engine, snapshots, interaction state --- */
    case 40: { /* profile-driven engine: environment, parameters, text engine from the input */
        tess_environment env = {f64(in), (int32_t)(u8(in) % 3), (int32_t)(u8(in) % 3) - (chance(in, 5) ? 1 : 0),
                                chance(in, 70) ? 1 : f64(in)};
        if (chance(in, 60)) env.width = 360 + (double)(u8(in) % 400);
        int64_t pc = count(in) % 4;
        char names[64];
        for (int i = 0; i < 64; i++) names[i] = (char)u8(in);
        int64_t offsets[5] = {0, i64(in) % 32, i64(in) % 64, 64, 64}, values[4] = {i64(in), i64(in), 0, 0};
        tess_parameters params = {chance(in, 5) ? NULL : names, length_for(in, 64), chance(in, 5) ? NULL : offsets,
                                  values, pc};
        tess_engine_t *made = NULL;
        s = tess_engine_create_with_profile(chance(in, 3) ? NULL : george, chance(in, 3) ? NULL : &env,
                                            chance(in, 60) ? NULL : &params, chance(in, 70) ? 800 : f64(in),
                                            chance(in, 70) ? 100 : f64(in), chance(in, 50) ? st->text[which] : NULL,
                                            chance(in, 3) ? NULL : &made);
        checked(s, NULL);
        CHECK((s == TESS_OK) == (made != NULL));
        if (made) {
            tess_engine_destroy(st->engine[which]);
            st->engine[which] = made;
        }
        break;
    }
    case 41:
    case 42: { /* George rows, mostly valid: a header and cells with labels; ids small (duplicates) */
        int64_t c = (count(in) % 24 + 24) % 24; /* count() may be negative: the rows made, 0...23 */
        uint64_t ids[24], versions[24];
        uint16_t kinds[24];
        static const uint16_t codes[] = {13, 1, 1, 1, 2, 4, 9, 15, 14, 99, 0, 3};
        char bytes[24 * 12];
        int64_t offsets[24 * 10 + 1];
        int64_t at = 0;
        offsets[0] = 0;
        for (int64_t r = 0; r < c; r++) {
            ids[r] = chance(in, 70) ? 1000 + (uint64_t)u8(in) : u64(in);
            kinds[r] = r == 0 && chance(in, 70) ? 13 : codes[u8(in) % 12];
            versions[r] = u8(in) % 3;
            for (int slot = 0; slot < 10; slot++) {
                /* value 0 (single/multi label), 2 (basic label), 3 (header headline) */
                if ((slot == 0 && (kinds[r] >= 2 && kinds[r] <= 5)) || (slot == 2 && kinds[r] == 1) ||
                    (slot == 3 && kinds[r] == 13) || chance(in, 3)) {
                    bytes[at++] = chance(in, 95) ? (char)('a' + u8(in) % 26) : (char)u8(in);
                }
                offsets[r * 10 + slot + 1] = at;
            }
        }
        tess_text_columns text = {bytes, at, offsets, 10};
        engine_snapshot(e, &rows_before, &total_before);
        s = op % 56 == 41 ? tess_engine_append_rows(e, ids, kinds, chance(in, 20) ? NULL : versions, c,
                                                    chance(in, 5) ? NULL : &text, chance(in, 50) ? &d : NULL)
                          : tess_engine_insert_rows(e, i64(in), ids, kinds, versions, chance(in, 5) ? -c : c, &text, &d);
        checked(s, e);
        engine_snapshot(e, &rows_after, &total_after);
        if (s != TESS_OK) CHECK(rows_after == rows_before && total_after == total_before);
        else if (e) CHECK(rows_after == rows_before + c);
        break;
    }
    case 43: { /* environment setters */
        engine_snapshot(e, &rows_before, &total_before);
        tess_environment env = {f64(in), (int32_t)(u8(in) % 3), (int32_t)(u8(in) % 3), f64(in)};
        int64_t offsets[3] = {0, 2, i64(in)}, values[2] = {i64(in), i64(in)};
        tess_parameters params = {"ab\xff", length_for(in, 3), offsets, values, count(in) % 3};
        static const char *classes[] = {"compact", "regular", "roomy", "\xff"};
        const char *wc = classes[u8(in) % 4];
        switch (u8(in) % 8) {
        case 7: s = tess_engine_set_width_class(e, chance(in, 20) ? NULL : wc, chance(in, 20) ? 0 : length_for(in, (int64_t)strlen(wc)), &d); break;
        case 0: s = tess_engine_set_width(e, chance(in, 50) ? 300 + (double)u8(in) : f64(in), &d); break;
        case 1: s = tess_engine_set_edit_mode(e, (int32_t)i64(in), &d); break;
        case 2: s = tess_engine_set_font_scale(e, chance(in, 50) ? 0.5 + (double)(u8(in) % 4) : f64(in), &d); break;
        case 3: s = tess_engine_set_platform(e, (int32_t)i64(in), chance(in, 50) ? &d : NULL); break;
        case 4: s = tess_engine_set_environment(e, chance(in, 5) ? NULL : &env, &d); break;
        case 5: s = tess_engine_set_parameters(e, chance(in, 5) ? NULL : &params, &d); break;
        default: s = tess_engine_set_overscan(e, f64(in)); break;
        }
        checked(s, e);
        engine_snapshot(e, &rows_after, &total_after);
        CHECK(rows_after == rows_before);
        if (s != TESS_OK) CHECK(total_after == total_before);
        break;
    }
    case 44: { /* measurement, with a callback that may answer badly */
        callback_mode = chance(in, 80) ? 0 : u8(in) % 5;
        engine_snapshot(e, &rows_before, &total_before);
        int64_t dirty_before = -1, dirty_after = -1;
        if (e) CHECK(tess_engine_dirty_count(e, &dirty_before) == TESS_OK);
        tess_measure_progress progress;
        if (chance(in, 60))
            s = tess_engine_measure(e, (int32_t)(u8(in) % 3), chance(in, 80) ? (int64_t)u8(in) : i64(in),
                                    chance(in, 50) ? &progress : NULL);
        else
            s = tess_engine_measure_all(e, chance(in, 80) ? 1 + u8(in) % 3 : i64(in), &d);
        checked(s, e);
        engine_snapshot(e, &rows_after, &total_after);
        if (e) CHECK(tess_engine_dirty_count(e, &dirty_after) == TESS_OK);
        CHECK(rows_after == rows_before);
        if (s != TESS_OK) CHECK(total_after == total_before && dirty_after == dirty_before);
        callback_mode = 0;
        break;
    }
    case 45: { /* reads: items, frames, width class, statistics, environment, versions */
        int64_t cap = count(in);
        size_t size = sizeof(tess_visible_item) > sizeof(tess_element_frame) ? sizeof(tess_visible_item)
                                                                              : sizeof(tess_element_frame);
        void *out = array(in, cap, size, 10);
        tess_visible_item sticky;
        int32_t has;
        tess_text_statistics stats;
        tess_environment env;
        uint64_t version;
        switch (u8(in) % 8) {
        case 0:
            s = tess_engine_items(e, out, cap, chance(in, 5) ? NULL : &n, chance(in, 50) ? &sticky : NULL,
                                  chance(in, 50) ? &has : NULL);
            break;
        case 1: s = tess_engine_row_frames(e, i64(in), out, cap, chance(in, 5) ? NULL : &n, &d, NULL); break;
        case 2: s = tess_engine_width_class(e, out, cap, chance(in, 5) ? NULL : &n); break;
        case 3: s = tess_engine_get_statistics(e, chance(in, 5) ? NULL : &stats); break;
        case 4: s = tess_engine_get_environment(e, chance(in, 5) ? NULL : &env); break;
        case 5: s = tess_engine_row_version(e, i64(in), chance(in, 5) ? NULL : &version); break;
        case 6: s = tess_engine_has_profile(e, chance(in, 5) ? NULL : &has); break;
        default: s = tess_engine_get_overscan(e, chance(in, 5) ? NULL : &d); break;
        }
        checked(s, e);
        if (s == TESS_ERROR_BUFFER_TOO_SMALL) CHECK(n > cap);
        free(out);
        break;
    }
    case 46:
    case 47: { /* snapshots: the engine's rows mutated (drops, new ids, versions, kinds) */
        if (!st->batch && chance(in, 90)) tess_batch_create(&st->batch);
        int64_t rows = 0;
        if (e) tess_engine_row_count(e, &rows);
        int64_t c = rows > 48 ? 48 : rows;
        c += count(in) % 8;
        if (c < 0) c = -c; /* the text is made for c rows; -c in the call tests the sign */
        uint64_t ids[64], versions[64];
        uint16_t kinds[64];
        uint8_t unread[64];
        double heights[64];
        for (int64_t i = 0; i < c; i++) {
            tess_row_info info = {0, 0, 1, 0, 0};
            uint64_t v = 0;
            if (i < rows && chance(in, 85)) {
                tess_engine_get_row(e, i, &info);
                tess_engine_row_version(e, i, &v);
            } else {
                info.id = 1000 + u8(in);
                info.kind = chance(in, 80) ? 1 : (uint16_t)u8(in);
            }
            ids[i] = info.id;
            kinds[i] = chance(in, 95) ? info.kind : (uint16_t)(u8(in) % 16);
            versions[i] = chance(in, 85) ? v : u8(in);
            unread[i] = chance(in, 95) ? u8(in) & 1 : u8(in);
            heights[i] = (double)u8(in);
        }
        text_args t;
        tess_text_columns *text = make_text(in, c, &t);
        tess_snapshot snap = {chance(in, 3) ? NULL : ids, kinds, chance(in, 3) ? NULL : versions,
                              chance(in, 3) ? -c : c, text, chance(in, 80) ? NULL : heights,
                              chance(in, 50) ? NULL : unread};
        engine_snapshot(e, &rows_before, &total_before);
        if (op % 56 == 46) s = tess_engine_prepare(e, chance(in, 3) ? NULL : &snap, st->batch);
        else if (chance(in, 50)) s = tess_engine_apply(e, chance(in, 3) ? NULL : &snap, st->batch, &d);
        else s = tess_engine_apply_prepared(e, st->batch, chance(in, 50) ? &d : NULL);
        checked(s, e);
        engine_snapshot(e, &rows_after, &total_after);
        if (s != TESS_OK || op % 56 == 46) CHECK(rows_after == rows_before && total_after == total_before);
        free_text(&t);
        break;
    }
    case 48: { /* batch reads */
        tess_batch_t *b = chance(in, 5) ? NULL : st->batch;
        int64_t cap = count(in);
        void *out = array(in, cap, sizeof(tess_diff_operation), 10);
        tess_diff_counts counts;
        int32_t prepared;
        switch (u8(in) % 6) {
        case 0: s = tess_batch_get_counts(b, chance(in, 5) ? NULL : &counts); break;
        case 1: s = tess_batch_indexes(b, (int32_t)i64(in), out, cap, chance(in, 5) ? NULL : &n); break;
        case 2: s = tess_batch_moves(b, out, cap, chance(in, 5) ? NULL : &n); break;
        case 3: s = tess_batch_operations(b, out, cap, chance(in, 5) ? NULL : &n); break;
        case 4: s = tess_batch_is_prepared(b, chance(in, 5) ? NULL : &prepared); break;
        default:
            tess_batch_destroy(st->batch);
            st->batch = NULL;
            b = NULL;
            s = tess_batch_create(chance(in, 5) ? NULL : &st->batch);
            break;
        }
        checked(s, b);
        if (s == TESS_ERROR_BUFFER_TOO_SMALL) CHECK(n > cap);
        free(out);
        break;
    }
    case 49:
    case 50:
    case 51: { /* swipe, selection, unread */
        int64_t rows = 0;
        if (e) tess_engine_row_count(e, &rows);
        tess_row_info info = {0, 0, 0, 0, 0};
        if (rows > 0 && chance(in, 80)) tess_engine_get_row(e, (int64_t)(u8(in) % rows), &info);
        else info.id = chance(in, 50) ? 1000 + u8(in) : u64(in);
        uint64_t ids[8];
        for (int i = 0; i < 8; i++) ids[i] = chance(in, 50) ? info.id + (uint64_t)i : 1000 + u8(in);
        int64_t changed = 0;
        engine_snapshot(e, &rows_before, &total_before);
        int32_t open, edge;
        uint64_t id;
        switch (u8(in) % 11) {
        case 0: s = tess_engine_swipe(e, info.id, (int32_t)(u8(in) % 3), chance(in, 70) ? 80 : f64(in), &changed); break;
        case 1: s = tess_engine_close_swipe(e, chance(in, 50) ? &changed : NULL); break;
        case 2: s = tess_engine_get_swipe(e, chance(in, 5) ? NULL : &open, &id, chance(in, 50) ? &edge : NULL, &d); break;
        case 3: s = tess_engine_commit_swipe(e, info.id, chance(in, 50) ? st->batch : NULL, &d); break;
        case 4: s = tess_engine_select(e, info.id, &changed); break;
        case 5: s = tess_engine_deselect(e, info.id, chance(in, 50) ? &changed : NULL); break;
        case 6: s = tess_engine_set_selection(e, chance(in, 5) ? NULL : ids, count(in) % 9, &changed); break;
        case 7: s = tess_engine_clear_selection(e, &changed); break;
        case 8: s = tess_engine_mark_viewed(e, i64(in), i64(in), &changed); break;
        case 9: s = tess_engine_mark_visible_viewed(e, &changed); break;
        default: {
            int64_t cap = count(in);
            tess_row_reference *refs = array(in, cap, sizeof(tess_row_reference), 10);
            s = tess_engine_changed_rows(e, refs, cap, chance(in, 5) ? NULL : &n);
            if (s == TESS_ERROR_BUFFER_TOO_SMALL) CHECK(n > cap);
            free(refs);
            break;
        }
        }
        checked(s, e);
        engine_snapshot(e, &rows_after, &total_after);
        if (s != TESS_OK) CHECK(rows_after == rows_before && total_after == total_before);
        else CHECK(rows_after == rows_before || rows_after == rows_before - 1);
        break;
    }
    case 52: { /* content updates by id: ids from the rows or small (unknown, repeated) */
        int64_t rows = 0;
        if (e) tess_engine_row_count(e, &rows);
        int64_t c = (count(in) % 6 + 6) % 6; /* count() may be negative: the text is made for c rows, -c tests the sign */
        uint64_t ids[6], versions[6];
        for (int64_t i = 0; i < c; i++) {
            tess_row_info info = {0, 0, 0, 0, 0};
            if (rows > 0 && chance(in, 80)) tess_engine_get_row(e, (int64_t)(u8(in) % rows), &info);
            else info.id = 1000 + u8(in);
            ids[i] = info.id;
            versions[i] = u8(in);
        }
        text_args t;
        tess_text_columns *text = make_text(in, c, &t);
        engine_snapshot(e, &rows_before, &total_before);
        s = tess_engine_update_rows(e, chance(in, 3) ? NULL : ids, chance(in, 3) ? NULL : versions,
                                    chance(in, 3) ? -c : c, text, chance(in, 50) ? &d : NULL);
        checked(s, e);
        engine_snapshot(e, &rows_after, &total_after);
        CHECK(rows_after == rows_before);
        if (s != TESS_OK) CHECK(total_after == total_before);
        free_text(&t);
        break;
    }
    default: { /* status names and the last errors of everything */
        CHECK(tess_status_name((tess_status)i64(in)) != NULL);
        CHECK(tess_last_error(NULL) != NULL);
        for (int i = 0; i < 2; i++) {
            if (st->engine[i]) CHECK(tess_last_error(st->engine[i]) != NULL);
            if (st->text[i]) CHECK(tess_last_error(st->text[i]) != NULL);
        }
        CHECK(tess_abi_version() == TESS_ABI_VERSION);
        break;
    }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    input in = {data, size};
    state st;
    memset(&st, 0, sizeof st);
    const double estimates[4] = {56, 72, 44, 0};
    tess_engine_create(estimates, 4, 300, &st.engine[0]);
    tess_text_engine_create(NULL, &st.text[0]);
    tess_text_engine_create_with_callback(fuzz_measure, NULL, 0, NULL, &st.text[1]);
    const tess_font_t *fonts[1] = {roboto};
    tess_text_style_create(fonts, 1, 15, 0, 0, &st.style);
    for (int steps = 0; in.n > 0 && steps < 64; steps++) step(&in, &st);
    callback_mode = 0;
    for (int i = 0; i < 2; i++) {
        tess_engine_destroy(st.engine[i]);
        tess_text_engine_destroy(st.text[i]);
    }
    tess_differ_destroy(st.differ);
    tess_text_style_destroy(st.style);
    tess_font_destroy(st.font);
    tess_measurer_destroy(st.measurer);
    tess_batch_destroy(st.batch);
    return 0;
}
