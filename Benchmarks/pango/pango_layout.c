/*
 * pango_layout: the Pango peer of Tessera's text benchmark (`cellbench text`).
 *
 * Lays out every string of a corpus file (UTF-8, one string per line, as written by
 * `cellbench corpus`) with PangoFT2 at a given width, with word wrap and emergency
 * character breaks (PANGO_WRAP_WORD_CHAR, like Android's StaticLayout), in exactly the font
 * file given, and reports the wall time of the first pass and of a second pass at another
 * width. File reading and font set-up are outside the timed region.
 *
 * Units: the font map's resolution is set to 72 dpi, so 1 pt = 1 px = PANGO_SCALE Pango
 * units, which is what Tessera's points are. Glyph positions are not rounded to whole
 * pixels (Tessera keeps 1/64 pt) unless --round-positions is given.
 *
 * Fonts: by default the fontconfig configuration holds only the font file and the
 * --fallback files, in that order, so nothing else on the machine can be picked; the
 * primary family is selected by the name read from the file. --system-fonts adds the
 * system's fonts instead (fontconfig's usual fallback). --check-fonts verifies, in an
 * untimed pass, which file every run was set in and that no Latin, Greek or Cyrillic run
 * fell back to another file.
 *
 * Records mode (`cellbench measure`, the per-cell peer): --records FILE lays out every record
 * "FACE SIZE LINE-HEIGHT LETTER-SPACING WIDTH MAX-LINES<TAB>TEXT" (one per line; FACE indexes
 * the --face files in order, each the primary of its own chain with the --fallback files after
 * it; WIDTH <= 0 means no wrapping, the text's single-line width is wanted; MAX-LINES > 0 cuts
 * the text to that many lines with an ellipsis at the end, 0 means no limit) in one timed pass
 * and writes "LINES WIDTH" per record to --out (WIDTH: the logical width in points).
 *
 * Build: cc -O2 pango_layout.c $(pkg-config --cflags --libs pangoft2 fontconfig) -o pango_layout
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <fontconfig/fontconfig.h>
#include <pango/pangofc-font.h>
#include <pango/pangofc-fontmap.h>
#include <pango/pangoft2.h>

#define MAX_FALLBACKS 16
#define MAX_FILES 64
#define HIST 11 /* line counts 1..10, and more than 10 */

typedef struct {
    char *data;     /* the whole file; each string NUL-terminated in place */
    size_t size;
    int count;
    char **text;    /* string i: in data, or a repaired copy if it was not valid UTF-8 */
    int *length;    /* byte length of string i */
} Corpus;

typedef struct {
    const char *font;
    double size, width, width2;
    const char *out;
    const char *fallbacks[MAX_FALLBACKS];
    int fallback_count;
    int system_fonts, check_fonts, offsets, round_positions, json;
    const char *records;
    const char *faces[MAX_FALLBACKS];
    int face_count;
} Options;

typedef struct {
    const char *file;
    long runs;
} FileRuns;

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("pango_layout: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

/* Points to Pango units, rounded to nearest (no libm, so the one-line build needs no -lm). */
static int to_units(double points) { return (int)(points * PANGO_SCALE + 0.5); }

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void usage(FILE *to) {
    fputs("usage: pango_layout --font FILE --size PT --width PT [--width2 PT] [options] CORPUS\n"
          "  -f, --font FILE        font file to lay out with (its first family name is selected)\n"
          "  -s, --size PT          font size in points (1 pt = 1 px: resolution is 72 dpi)\n"
          "  -w, --width PT         layout width of the first pass, in points\n"
          "  -W, --width2 PT        layout width of the second pass (none: one pass only)\n"
          "  -F, --fallback FILE    a fallback font file, after the primary (repeatable, in order)\n"
          "  -S, --system-fonts     also let fontconfig fall back to the system's fonts\n"
          "  -o, --out FILE         write per-string results: one line per string,\n"
          "                         \"LINES1 LINES2\", with --offsets then a tab and the byte\n"
          "                         offsets where lines 2.. start, comma-separated, per width\n"
          "  -b, --offsets          include line start byte offsets in --out\n"
          "  -c, --check-fonts      untimed pass: which font file each run used; fail if a\n"
          "                         Latin, Greek or Cyrillic run fell back to another file\n"
          "  -r, --round-positions  round glyph positions to whole points (Pango's default)\n"
          "  -j, --json             print the summary as one JSON object\n"
          "  -h, --help\n"
          "CORPUS: UTF-8, one string per line (LF; a CR before LF is dropped).\n"
          "\n"
          "usage: pango_layout --records FILE --face FILE [--face FILE ...] [--fallback FILE ...] [--out FILE] [--json]\n"
          "  -R, --records FILE     lay out records \"FACE SIZE LINE-HEIGHT LETTER-SPACING WIDTH MAX-LINES<TAB>TEXT\"\n"
          "                         (FACE: index of --face; WIDTH <= 0: no wrapping; MAX-LINES 0: no limit)\n"
          "  -A, --face FILE        a primary font file of the records (repeatable, indexed from 0)\n"
          "  --out FILE writes \"LINES WIDTH\" per record\n",
          to);
}

static double parse_positive(const char *name, const char *text) {
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (errno != 0 || end == text || *end != '\0' || !(v > 0) || !isfinite(v) || v > 1e6)
        die("%s must be a positive number of points, not \"%s\"", name, text);
    return v;
}

static Options parse_options(int argc, char **argv, const char **corpus_path) {
    static const struct option longs[] = {
        {"font", required_argument, 0, 'f'},     {"size", required_argument, 0, 's'},
        {"width", required_argument, 0, 'w'},    {"width2", required_argument, 0, 'W'},
        {"fallback", required_argument, 0, 'F'}, {"system-fonts", no_argument, 0, 'S'},
        {"out", required_argument, 0, 'o'},      {"offsets", no_argument, 0, 'b'},
        {"check-fonts", no_argument, 0, 'c'},    {"round-positions", no_argument, 0, 'r'},
        {"json", no_argument, 0, 'j'},           {"help", no_argument, 0, 'h'},
        {"records", required_argument, 0, 'R'},  {"face", required_argument, 0, 'A'},
        {0, 0, 0, 0},
    };
    Options o = {0};
    int c;
    while ((c = getopt_long(argc, argv, "f:s:w:W:F:So:bcrjhR:A:", longs, NULL)) != -1) {
        switch (c) {
        case 'f': o.font = optarg; break;
        case 's': o.size = parse_positive("--size", optarg); break;
        case 'w': o.width = parse_positive("--width", optarg); break;
        case 'W': o.width2 = parse_positive("--width2", optarg); break;
        case 'F':
            if (o.fallback_count == MAX_FALLBACKS) die("at most %d --fallback files", MAX_FALLBACKS);
            o.fallbacks[o.fallback_count++] = optarg;
            break;
        case 'S': o.system_fonts = 1; break;
        case 'o': o.out = optarg; break;
        case 'b': o.offsets = 1; break;
        case 'c': o.check_fonts = 1; break;
        case 'r': o.round_positions = 1; break;
        case 'j': o.json = 1; break;
        case 'R': o.records = optarg; break;
        case 'A':
            if (o.face_count == MAX_FALLBACKS) die("at most %d --face files", MAX_FALLBACKS);
            o.faces[o.face_count++] = optarg;
            break;
        case 'h': usage(stdout); exit(0);
        default: usage(stderr); exit(2);
        }
    }
    if (o.records) {
        if (o.face_count == 0) die("--records needs at least one --face");
        if (optind != argc) die("--records takes no corpus file");
        *corpus_path = NULL;
        return o;
    }
    if (!o.font || o.size == 0 || o.width == 0 || optind != argc - 1) {
        usage(stderr);
        if (!o.font) die("--font is required");
        if (o.size == 0) die("--size is required");
        if (o.width == 0) die("--width is required");
        die("exactly one corpus file is required");
    }
    if (o.offsets && !o.out) die("--offsets needs --out");
    *corpus_path = argv[optind];
    return o;
}

/* Reads the corpus; counts strings that are not valid UTF-8 and strings holding a
 * paragraph or line separator that would make Pango start a new line. */
static Corpus read_corpus(const char *path, int *invalid, int *first_invalid, int *separators) {
    FILE *f = fopen(path, "rb");
    if (!f) die("cannot open corpus %s: %s", path, strerror(errno));
    Corpus c = {0};
    size_t capacity = 1 << 20;
    c.data = malloc(capacity + 1);
    size_t n;
    while ((n = fread(c.data + c.size, 1, capacity - c.size, f)) > 0) {
        c.size += n;
        if (c.size == capacity) {
            capacity *= 2;
            c.data = realloc(c.data, capacity + 1);
            if (!c.data) die("out of memory reading %s", path);
        }
    }
    if (ferror(f)) die("cannot read corpus %s: %s", path, strerror(errno));
    fclose(f);
    if (c.size == 0) die("corpus %s is empty", path);
    c.data[c.size] = '\0';

    int lines = 0;
    for (size_t i = 0; i < c.size; i++) lines += c.data[i] == '\n';
    if (c.data[c.size - 1] != '\n') lines++;
    c.text = malloc(sizeof(char *) * lines);
    c.length = malloc(sizeof(int) * lines);
    if (c.size > (size_t)0x7fffffff) die("corpus %s is larger than 2 GiB", path);

    *invalid = 0, *first_invalid = -1, *separators = 0;
    size_t pos = 0;
    while (pos < c.size) {
        char *nl = memchr(c.data + pos, '\n', c.size - pos);
        size_t end = nl ? (size_t)(nl - c.data) : c.size;
        size_t len = end - pos;
        if (len > 0 && c.data[pos + len - 1] == '\r') len--;
        c.data[pos + len] = '\0';
        char *s = c.data + pos;
        if (!g_utf8_validate(s, (gssize)len, NULL)) {
            /* Repaired here (each invalid byte becomes U+FFFD, as Pango would do) so that the
             * timed passes neither warn nor pay for it. */
            if (*first_invalid < 0) *first_invalid = c.count;
            (*invalid)++;
            s = g_utf8_make_valid(s, (gssize)len);
            len = strlen(s);
        } else if (memchr(s, '\r', len) || strstr(s, "\xe2\x80\xa8") || strstr(s, "\xe2\x80\xa9")) {
            (*separators)++;
        }
        c.text[c.count] = s;
        c.length[c.count] = (int)len;
        c.count++;
        pos = end + 1;
    }
    return c;
}

/* The first family name in a font file, or NULL if FreeType cannot read it. */
static char *family_of(const char *file) {
    int count = 0;
    FcPattern *p = FcFreeTypeQuery((const FcChar8 *)file, 0, NULL, &count);
    if (!p) return NULL;
    FcChar8 *family = NULL;
    char *result = NULL;
    if (FcPatternGetString(p, FC_FAMILY, 0, &family) == FcResultMatch) result = strdup((const char *)family);
    FcPatternDestroy(p);
    return result;
}

static const char *file_of_font(PangoFont *font) {
    if (!font || !PANGO_IS_FC_FONT(font)) return "(none)";
    FcPattern *p = pango_fc_font_get_pattern(PANGO_FC_FONT(font));
    FcChar8 *file = NULL;
    if (p && FcPatternGetString(p, FC_FILE, 0, &file) == FcResultMatch) return (const char *)file;
    return "(unknown)";
}

static int same_file(const char *a, const char *b) {
    char ra[4096], rb[4096];
    if (realpath(a, ra) && realpath(b, rb)) return strcmp(ra, rb) == 0;
    return strcmp(a, b) == 0;
}

/* One timed pass: every string laid out at `width` (Pango units); line counts into `lines`. */
static double timed_pass(PangoLayout *layout, const Corpus *c, int width, int *lines) {
    pango_layout_set_width(layout, width);
    double t0 = now_seconds();
    for (int i = 0; i < c->count; i++) {
        pango_layout_set_text(layout, c->text[i], c->length[i]);
        lines[i] = pango_layout_get_line_count(layout);
    }
    return now_seconds() - t0;
}

typedef struct {
    FileRuns files[MAX_FILES];
    int file_count;
    long script_fallback_runs; /* Latin, Greek or Cyrillic letters set in another file */
    int first_fallback_string;
    long unknown_glyphs;       /* glyphs no font had (drawn as hex boxes) */
    int unknown_strings;
    int mismatches;            /* line counts differing from the timed pass */
} Check;

static void count_file(Check *k, const char *file) {
    for (int i = 0; i < k->file_count; i++)
        if (strcmp(k->files[i].file, file) == 0) { k->files[i].runs++; return; }
    if (k->file_count < MAX_FILES) k->files[k->file_count++] = (FileRuns){strdup(file), 1};
}

static int has_primary_script(const char *s, int length) {
    const char *end = s + length;
    for (const char *p = s; p < end; p = g_utf8_next_char(p)) {
        GUnicodeScript script = g_unichar_get_script(g_utf8_get_char(p));
        if (script == G_UNICODE_SCRIPT_LATIN || script == G_UNICODE_SCRIPT_GREEK || script == G_UNICODE_SCRIPT_CYRILLIC)
            return 1;
    }
    return 0;
}

/* Untimed: lays out again, checks line counts, records fonts and line start offsets. */
static void detail_pass(PangoLayout *layout, const Corpus *c, int width, const int *lines, const char *primary,
                        Check *k, int fonts, GString **offsets) {
    pango_layout_set_width(layout, width);
    for (int i = 0; i < c->count; i++) {
        const char *text = c->text[i];
        pango_layout_set_text(layout, text, c->length[i]);
        if (pango_layout_get_line_count(layout) != lines[i]) k->mismatches++;
        long unknown_before = k->unknown_glyphs;
        int first_line = 1;
        for (GSList *l = pango_layout_get_lines_readonly(layout); l; l = l->next) {
            PangoLayoutLine *line = l->data;
            if (offsets && !first_line) {
                if (offsets[i]->len > 0) g_string_append_c(offsets[i], ',');
                g_string_append_printf(offsets[i], "%d", line->start_index);
            }
            first_line = 0;
            if (!fonts) continue;
            for (GSList *r = line->runs; r; r = r->next) {
                PangoGlyphItem *run = r->data;
                const char *file = file_of_font(run->item->analysis.font);
                count_file(k, file);
                if (!same_file(file, primary) && has_primary_script(text + run->item->offset, run->item->length)) {
                    if (k->script_fallback_runs == 0) k->first_fallback_string = i;
                    k->script_fallback_runs++;
                }
                for (int g = 0; g < run->glyphs->num_glyphs; g++)
                    if (run->glyphs->glyphs[g].glyph & PANGO_GLYPH_UNKNOWN_FLAG) k->unknown_glyphs++;
            }
        }
        if (k->unknown_glyphs != unknown_before) k->unknown_strings++;
    }
}

static void histogram(const int *lines, int n, long hist[HIST], long *total, int *max) {
    memset(hist, 0, sizeof(long) * HIST);
    *total = 0, *max = 0;
    for (int i = 0; i < n; i++) {
        hist[lines[i] > 10 ? 10 : lines[i] - 1]++;
        *total += lines[i];
        if (lines[i] > *max) *max = lines[i];
    }
}

static void print_pass(const Options *o, const char *name, double width, double seconds, const int *lines, int n,
                       int last) {
    long hist[HIST], total;
    int max;
    histogram(lines, n, hist, &total, &max);
    if (o->json) {
        printf("\"%s\":{\"width_pt\":%g,\"seconds\":%.6f,\"us_per_string\":%.4f,\"lines_total\":%ld,\"lines_max\":%d,"
               "\"lines_histogram\":[",
               name, width, seconds, seconds * 1e6 / n, total, max);
        for (int i = 0; i < HIST; i++) printf("%s%ld", i ? "," : "", hist[i]);
        printf("]}%s", last ? "" : ",");
    } else {
        printf("%s: width %g pt: %.3f ms, %.3f us/string, %ld lines (mean %.3f, max %d)\n", name, width, seconds * 1e3,
               seconds * 1e6 / n, total, (double)total / n, max);
        printf("  lines:");
        for (int i = 0; i < HIST; i++)
            if (hist[i]) printf(" %s%d: %ld (%.1f%%)", i == 10 ? ">" : "", i == 10 ? 10 : i + 1, hist[i], 100.0 * hist[i] / n);
        printf("\n");
    }
}

/* ---- Records mode: the per-cell peer of `cellbench measure` ---- */

typedef struct {
    int face;
    double size, letter_spacing, width;
    int max_lines;
    const char *text;
    int length;
} Record;

#define MAX_DESCS 256

/* One face's description at one size, and the letter spacing attributes in use. */
typedef struct {
    int face;
    double size;
    PangoFontDescription *desc;
} Desc;

typedef struct {
    double spacing;
    PangoAttrList *attrs;
} Spacing;

static Record *read_records(const char *path, int face_count, int *count, char **storage) {
    FILE *f = fopen(path, "rb");
    if (!f) die("cannot open records %s: %s", path, strerror(errno));
    size_t capacity = 1 << 20, size = 0, n;
    char *data = malloc(capacity + 1);
    while ((n = fread(data + size, 1, capacity - size, f)) > 0) {
        size += n;
        if (size == capacity) {
            capacity *= 2;
            data = realloc(data, capacity + 1);
            if (!data) die("out of memory reading %s", path);
        }
    }
    if (ferror(f)) die("cannot read records %s: %s", path, strerror(errno));
    fclose(f);
    data[size] = '\0';
    int lines = 0;
    for (size_t i = 0; i < size; i++) lines += data[i] == '\n';
    if (size > 0 && data[size - 1] != '\n') lines++;
    Record *r = malloc(sizeof(Record) * (lines > 0 ? lines : 1));
    int k = 0;
    size_t pos = 0;
    while (pos < size) {
        char *nl = memchr(data + pos, '\n', size - pos);
        size_t end = nl ? (size_t)(nl - data) : size;
        data[end] = '\0';
        char *line = data + pos;
        char *tab = strchr(line, '\t');
        if (!tab) die("records line %d has no tab", k + 1);
        *tab = '\0';
        Record rec = {0};
        if (sscanf(line, "%d %lf %*f %lf %lf %d", &rec.face, &rec.size, &rec.letter_spacing, &rec.width, &rec.max_lines) != 5)
            die("records line %d: expected \"FACE SIZE LINE-HEIGHT LETTER-SPACING WIDTH MAX-LINES\" before the tab", k + 1);
        if (rec.face < 0 || rec.face >= face_count) die("records line %d: face %d, there are %d --face files", k + 1, rec.face, face_count);
        if (!(rec.size > 0) || rec.max_lines < 0) die("records line %d: bad size or line limit", k + 1);
        rec.text = tab + 1;
        rec.length = (int)(data + end - rec.text);
        if (!g_utf8_validate(rec.text, rec.length, NULL)) die("records line %d: text is not valid UTF-8", k + 1);
        r[k++] = rec;
        pos = end + 1;
    }
    *count = k;
    *storage = data;
    return r;
}

static int records_main(const Options *o) {
    if (!FcInit()) die("fontconfig failed to initialise");
    FcConfig *config = o->system_fonts ? FcInitLoadConfigAndFonts() : FcConfigCreate();
    if (!config) die("fontconfig failed to create a configuration");
    PangoFontDescription *faces[MAX_FALLBACKS];
    for (int i = 0; i < o->face_count; i++) {
        if (access(o->faces[i], R_OK) != 0) die("cannot read font file %s: %s", o->faces[i], strerror(errno));
        if (!FcConfigAppFontAddFile(config, (const FcChar8 *)o->faces[i])) die("fontconfig cannot add font file %s", o->faces[i]);
        int count = 0;
        FcPattern *p = FcFreeTypeQuery((const FcChar8 *)o->faces[i], 0, NULL, &count);
        if (!p) die("%s is not a font file FreeType can read", o->faces[i]);
        /* Family, weight, slant and width as fontconfig reads them from the file. */
        faces[i] = pango_fc_font_description_from_pattern(p, FALSE);
        FcPatternDestroy(p);
    }
    for (int i = 0; i < o->fallback_count; i++) {
        if (access(o->fallbacks[i], R_OK) != 0) die("cannot read fallback font %s: %s", o->fallbacks[i], strerror(errno));
        if (!FcConfigAppFontAddFile(config, (const FcChar8 *)o->fallbacks[i]))
            die("fontconfig cannot add fallback font %s", o->fallbacks[i]);
    }
    PangoFontMap *map = pango_ft2_font_map_new();
    pango_fc_font_map_set_config(PANGO_FC_FONT_MAP(map), config);
    pango_ft2_font_map_set_resolution(PANGO_FT2_FONT_MAP(map), 72.0, 72.0);
    PangoContext *context = pango_font_map_create_context(map);
    pango_context_set_round_glyph_positions(context, o->round_positions);
    for (int i = 0; i < o->face_count; i++) {
        PangoFontDescription *d = pango_font_description_copy(faces[i]);
        pango_font_description_set_size(d, to_units(12));
        PangoFont *font = pango_font_map_load_font(map, context, d);
        const char *file = file_of_font(font);
        if (!same_file(file, o->faces[i])) {
            char *name = pango_font_description_to_string(faces[i]);
            die("face %d (\"%s\") resolves to %s, not %s", i, name, file, o->faces[i]);
        }
        pango_font_description_free(d);
    }

    int count = 0;
    char *storage = NULL;
    Record *records = read_records(o->records, o->face_count, &count, &storage);
    if (count == 0) die("records file %s holds no record", o->records);

    /* Descriptions and attribute lists, made before the timed pass. */
    Desc *descs = malloc(sizeof(Desc) * MAX_DESCS);
    int desc_count = 0;
    Spacing spacings[64];
    int spacing_count = 0;
    PangoFontDescription **record_desc = malloc(sizeof(*record_desc) * count);
    PangoAttrList **record_attrs = malloc(sizeof(*record_attrs) * count);
    for (int i = 0; i < count; i++) {
        Record *r = &records[i];
        int d = 0;
        while (d < desc_count && !(descs[d].face == r->face && descs[d].size == r->size)) d++;
        if (d == desc_count) {
            if (desc_count == MAX_DESCS) die("more than %d (face, size) pairs", MAX_DESCS);
            descs[d].face = r->face, descs[d].size = r->size;
            descs[d].desc = pango_font_description_copy(faces[r->face]);
            pango_font_description_set_size(descs[d].desc, to_units(r->size));
            desc_count++;
        }
        record_desc[i] = descs[d].desc;
        record_attrs[i] = NULL;
        if (r->letter_spacing != 0) {
            int s = 0;
            while (s < spacing_count && spacings[s].spacing != r->letter_spacing) s++;
            if (s == spacing_count) {
                if (spacing_count == 64) die("more than 64 letter spacings");
                spacings[s].spacing = r->letter_spacing;
                spacings[s].attrs = pango_attr_list_new();
                pango_attr_list_insert(spacings[s].attrs, pango_attr_letter_spacing_new(to_units(r->letter_spacing)));
                spacing_count++;
            }
            record_attrs[i] = spacings[s].attrs;
        }
    }

    PangoLayout *layout = pango_layout_new(context);
    pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);
    int *lines = malloc(sizeof(int) * count);
    double *widths = malloc(sizeof(double) * count);
    PangoFontDescription *current_desc = NULL;
    PangoAttrList *current_attrs = NULL;
    int current_limit = 0;
    double t0 = now_seconds();
    for (int i = 0; i < count; i++) {
        const Record *r = &records[i];
        if (record_desc[i] != current_desc) pango_layout_set_font_description(layout, current_desc = record_desc[i]);
        if (record_attrs[i] != current_attrs) pango_layout_set_attributes(layout, current_attrs = record_attrs[i]);
        if (r->max_lines != current_limit) {
            current_limit = r->max_lines;
            pango_layout_set_ellipsize(layout, current_limit > 0 ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE);
            pango_layout_set_height(layout, current_limit > 0 ? -current_limit : -1);
        }
        pango_layout_set_width(layout, r->width > 0 ? to_units(r->width) : -1);
        pango_layout_set_text(layout, r->text, r->length);
        lines[i] = pango_layout_get_line_count(layout);
        if (r->width > 0) {
            widths[i] = 0;
        } else {
            PangoRectangle logical;
            pango_layout_get_extents(layout, NULL, &logical);
            widths[i] = (double)logical.width / PANGO_SCALE;
        }
    }
    double seconds = now_seconds() - t0;

    long total = 0;
    for (int i = 0; i < count; i++) total += lines[i];
    if (o->out) {
        FILE *out = strcmp(o->out, "-") == 0 ? stdout : fopen(o->out, "w");
        if (!out) die("cannot write %s: %s", o->out, strerror(errno));
        for (int i = 0; i < count; i++) fprintf(out, "%d %.4f\n", lines[i], widths[i]);
        if (out != stdout && fclose(out) != 0) die("cannot write %s: %s", o->out, strerror(errno));
    }
    if (o->json) {
        printf("{\"pango\":\"%s\",\"mode\":\"records\",\"dpi\":72,\"wrap\":\"WORD_CHAR\",\"round_positions\":%s,"
               "\"records\":%d,\"seconds\":%.6f,\"us_per_record\":%.4f,\"lines_total\":%ld,\"faces\":[",
               pango_version_string(), o->round_positions ? "true" : "false", count, seconds, seconds * 1e6 / count, total);
        for (int i = 0; i < o->face_count; i++) {
            char *name = pango_font_description_to_string(faces[i]);
            printf("%s{\"file\":\"%s\",\"description\":\"%s\"}", i ? "," : "", o->faces[i], name);
            g_free(name);
        }
        printf("]}\n");
    } else {
        printf("Pango %s, PangoFT2 at 72 dpi, wrap WORD_CHAR, %d faces, %d (face, size) pairs\n", pango_version_string(),
               o->face_count, desc_count);
        printf("records: %d in %.3f ms, %.3f us/record, %ld lines\n", count, seconds * 1e3, seconds * 1e6 / count, total);
    }
    return 0;
}

int main(int argc, char **argv) {
    const char *corpus_path;
    Options o = parse_options(argc, argv, &corpus_path);
    if (o.records) return records_main(&o);

    /* Fonts: exactly the given files (or those plus the system's). */
    if (access(o.font, R_OK) != 0) die("cannot read font file %s: %s", o.font, strerror(errno));
    char *family = family_of(o.font);
    if (!family) die("%s is not a font file FreeType can read (or it has no family name)", o.font);
    if (!FcInit()) die("fontconfig failed to initialise");
    FcConfig *config = o.system_fonts ? FcInitLoadConfigAndFonts() : FcConfigCreate();
    if (!config) die("fontconfig failed to create a configuration");
    if (!FcConfigAppFontAddFile(config, (const FcChar8 *)o.font)) die("fontconfig cannot add font file %s", o.font);
    for (int i = 0; i < o.fallback_count; i++) {
        if (access(o.fallbacks[i], R_OK) != 0) die("cannot read fallback font %s: %s", o.fallbacks[i], strerror(errno));
        if (!FcConfigAppFontAddFile(config, (const FcChar8 *)o.fallbacks[i]))
            die("fontconfig cannot add fallback font %s", o.fallbacks[i]);
    }

    PangoFontMap *map = pango_ft2_font_map_new();
    pango_fc_font_map_set_config(PANGO_FC_FONT_MAP(map), config);
    pango_ft2_font_map_set_resolution(PANGO_FT2_FONT_MAP(map), 72.0, 72.0);
    PangoContext *context = pango_font_map_create_context(map);
    pango_context_set_round_glyph_positions(context, o.round_positions);
    PangoFontDescription *desc = pango_font_description_new();
    pango_font_description_set_family(desc, family);
    pango_font_description_set_style(desc, PANGO_STYLE_NORMAL);
    pango_font_description_set_weight(desc, PANGO_WEIGHT_NORMAL);
    pango_font_description_set_size(desc, to_units(o.size));
    pango_context_set_font_description(context, desc);

    /* The family must resolve to the very file given (not another file of the same family). */
    PangoFont *primary = pango_font_map_load_font(map, context, desc);
    const char *primary_file = file_of_font(primary);
    if (!same_file(primary_file, o.font))
        die("family \"%s\" resolves to %s, not %s (another installed font has this family; drop --system-fonts)",
            family, primary_file, o.font);

    PangoLayout *layout = pango_layout_new(context);
    pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);

    int invalid, first_invalid, separators;
    Corpus corpus = read_corpus(corpus_path, &invalid, &first_invalid, &separators);
    if (invalid)
        fprintf(stderr, "pango_layout: warning: %d strings are not valid UTF-8 (first: line %d); their invalid bytes "
                "are replaced by U+FFFD before layout (offsets in --out refer to the repaired text)\n", invalid, first_invalid + 1);
    if (separators)
        fprintf(stderr, "pango_layout: warning: %d strings contain CR, U+2028 or U+2029, which start a new line\n",
                separators);

    int w1 = to_units(o.width), w2 = to_units(o.width2);
    int *lines1 = malloc(sizeof(int) * corpus.count), *lines2 = malloc(sizeof(int) * corpus.count);
    double t1 = timed_pass(layout, &corpus, w1, lines1);
    double t2 = o.width2 > 0 ? timed_pass(layout, &corpus, w2, lines2) : 0;

    Check check = {.first_fallback_string = -1}, check2 = {.first_fallback_string = -1};
    GString **off1 = NULL, **off2 = NULL;
    if (o.offsets) {
        off1 = malloc(sizeof(GString *) * corpus.count);
        off2 = malloc(sizeof(GString *) * corpus.count);
        for (int i = 0; i < corpus.count; i++) off1[i] = g_string_new(NULL), off2[i] = g_string_new(NULL);
    }
    if (o.check_fonts || o.offsets) {
        detail_pass(layout, &corpus, w1, lines1, o.font, &check, o.check_fonts, off1);
        if (o.width2 > 0) detail_pass(layout, &corpus, w2, lines2, o.font, &check2, 0, off2);
        check.mismatches += check2.mismatches;
    }

    if (o.out) {
        FILE *out = strcmp(o.out, "-") == 0 ? stdout : fopen(o.out, "w");
        if (!out) die("cannot write %s: %s", o.out, strerror(errno));
        for (int i = 0; i < corpus.count; i++) {
            if (o.width2 > 0) fprintf(out, "%d %d", lines1[i], lines2[i]);
            else fprintf(out, "%d", lines1[i]);
            if (o.offsets) {
                fprintf(out, "\t%s", off1[i]->str);
                if (o.width2 > 0) fprintf(out, "\t%s", off2[i]->str);
            }
            fputc('\n', out);
        }
        if (out != stdout && fclose(out) != 0) die("cannot write %s: %s", o.out, strerror(errno));
    }

    if (o.json) {
        printf("{\"pango\":\"%s\",\"font\":\"%s\",\"family\":\"%s\",\"size_pt\":%g,\"dpi\":72,\"wrap\":\"WORD_CHAR\","
               "\"round_positions\":%s,\"strings\":%d,\"bytes\":%zu,\"invalid_utf8\":%d,",
               pango_version_string(), o.font, family, o.size, o.round_positions ? "true" : "false", corpus.count,
               corpus.size, invalid);
        print_pass(&o, "pass1", o.width, t1, lines1, corpus.count, o.width2 == 0 && !o.check_fonts);
        if (o.width2 > 0) print_pass(&o, "pass2", o.width2, t2, lines2, corpus.count, !o.check_fonts);
        if (o.check_fonts) {
            printf("\"fonts\":{\"script_fallback_runs\":%ld,\"unknown_glyphs\":%ld,\"unknown_glyph_strings\":%d,"
                   "\"line_count_mismatches\":%d,\"runs_by_file\":{",
                   check.script_fallback_runs, check.unknown_glyphs, check.unknown_strings, check.mismatches);
            for (int i = 0; i < check.file_count; i++)
                printf("%s\"%s\":%ld", i ? "," : "", check.files[i].file, check.files[i].runs);
            printf("}}");
        }
        printf("}\n");
    } else {
        printf("Pango %s, PangoFT2 at 72 dpi, %s (\"%s\") %g pt, wrap WORD_CHAR, glyph positions %s\n",
               pango_version_string(), o.font, family, o.size, o.round_positions ? "rounded" : "unrounded");
        printf("corpus: %d strings, %zu bytes, %d not valid UTF-8\n", corpus.count, corpus.size, invalid);
        print_pass(&o, "pass1", o.width, t1, lines1, corpus.count, 0);
        if (o.width2 > 0) print_pass(&o, "pass2", o.width2, t2, lines2, corpus.count, 0);
        if (o.check_fonts) {
            printf("fonts (untimed pass at width %g pt): runs by file:\n", o.width);
            for (int i = 0; i < check.file_count; i++) printf("  %8ld  %s\n", check.files[i].runs, check.files[i].file);
            printf("  Latin/Greek/Cyrillic runs set in another file: %ld", check.script_fallback_runs);
            if (check.first_fallback_string >= 0) printf(" (first: line %d)", check.first_fallback_string + 1);
            printf("\n  glyphs no font has (hex boxes): %ld in %d strings\n", check.unknown_glyphs, check.unknown_strings);
        }
        if (check.mismatches) printf("line counts differing from the timed passes: %d\n", check.mismatches);
    }
    if (o.check_fonts && check.script_fallback_runs > 0) {
        fprintf(stderr, "pango_layout: error: %ld Latin/Greek/Cyrillic runs fell back to another font (first: line %d)\n",
                check.script_fallback_runs, check.first_fallback_string + 1);
        return 3;
    }
    return 0;
}
