/*
 * tessera.h — the C ABI of Tessera, a large-list virtualization core.
 *
 * This header is the single source of truth for the ABI: the library (libtessera.so) is
 * implemented in Swift with `@c @implementation`, so the Swift compiler checks every
 * function body against the declaration here.
 *
 * Conventions
 * -----------
 * - Names: prefix `tess_`; types `tess_<object>_t`; functions `tess_<object>_<verb>`.
 * - Objects are opaque handles made by a `create`/`load` function and freed by the
 *   matching `destroy`. `destroy(NULL)` does nothing; destroying a handle twice, or using it
 *   after `destroy`, is undefined behaviour. Read-only calls take a `const` handle.
 * - Every call except `destroy`, `tess_abi_version`, `tess_status_name` and
 *   `tess_last_error` returns a `tess_status`. On failure `tess_last_error(handle)` gives a
 *   message naming the function and the offending argument. A failed call changes nothing
 *   (outputs other than the `count` of a too-small buffer are left unspecified) and the
 *   handle stays usable. Nothing aborts and nothing throws across the boundary.
 * - Failures of calls without a handle (the `create`/`load` functions) are reported by
 *   `tess_last_error(NULL)`, per thread.
 * - Bulk input is column arrays plus one count. Results go into caller buffers: `capacity`
 *   in (entries), `*count` out. When the result does not fit, the call returns
 *   TESS_ERROR_BUFFER_TOO_SMALL and sets `*count` to the capacity needed; a buffer may be
 *   NULL only when its capacity is 0 (a size query). Strings out (names) follow the same
 *   rule in bytes and are NOT NUL-terminated.
 * - Counts, indexes and capacities are `int64_t`; a negative one is an error
 *   (TESS_ERROR_INVALID_ARGUMENT), never a huge unsigned number.
 * - Text is UTF-8 with explicit byte lengths, never NUL-terminated; invalid UTF-8 is
 *   TESS_ERROR_INVALID_UTF8. A text column is one buffer plus byte offsets (see
 *   `tess_text_columns`).
 * - Geometry is in points (double). Heights are stored in 1/64 pt, so every sum is exact.
 *   NaN or infinite inputs are TESS_ERROR_INVALID_ARGUMENT.
 * - Threads: one thread at a time per handle; different handles are independent. Objects
 *   that share a text engine (see `tess_measurer_create`) count as one handle.
 * - Versioning: TESS_ABI_VERSION and `tess_abi_version()`. A change adds a symbol; it
 *   never edits one.
 *
 * Nullability and ownership
 * -------------------------
 * Every pointer is annotated. TESS_NONNULL: must not be NULL; a NULL is still detected and
 * reported as TESS_ERROR_NULL_ARGUMENT. TESS_NULLABLE: NULL is allowed and its meaning is
 * stated. Input pointers are borrowed for the duration of the call only (the library copies
 * what it keeps), unless stated otherwise. Output buffers belong to the caller. Returned
 * `const char *` strings belong to the library.
 */
#ifndef TESSERA_H
#define TESSERA_H

#include <stdint.h>

#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wnullability-extension"
#if defined(TESS_IMPLEMENTATION)
/* The implementation checks every required pointer for NULL, so it sees them as nullable. */
#define TESS_NONNULL _Nullable
#else
#define TESS_NONNULL _Nonnull
#endif
#define TESS_NULLABLE _Nullable
#define TESS_RETURNS_NONNULL _Nonnull
#else
#define TESS_NONNULL
#define TESS_NULLABLE
#define TESS_RETURNS_NONNULL
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ===================================================================================== */
/* Version, status codes, errors                                                          */
/* ===================================================================================== */

/** The ABI version this header describes (2 adds the profile-driven engine, snapshots and
 *  interaction state to version 1; nothing of version 1 changed). */
#define TESS_ABI_VERSION 2

/** The ABI version of the loaded library (equal to TESS_ABI_VERSION when they match). */
uint32_t tess_abi_version(void);

/** The result of a call: TESS_OK or one of the TESS_ERROR_ codes below. */
typedef int32_t tess_status;

#define TESS_OK 0
/** A required pointer (handle, array, output) was NULL. */
#define TESS_ERROR_NULL_ARGUMENT 1
/** A count, capacity, index or enum value out of its domain; a NaN, infinite or negative
 *  geometry value; flags a host may not set; columns of different lengths. */
#define TESS_ERROR_INVALID_ARGUMENT 2
/** A row index or range outside the rows (or a text slot outside its row). */
#define TESS_ERROR_OUT_OF_RANGE 3
/** The output buffer is too small; `*count` holds the capacity needed. */
#define TESS_ERROR_BUFFER_TOO_SMALL 4
/** An id already present, or repeated in one batch or one side of a diff. */
#define TESS_ERROR_DUPLICATE_ID 5
/** An id that is not present. */
#define TESS_ERROR_UNKNOWN_ID 6
/** A kind without an estimated height, or a kind code the profile does not define. */
#define TESS_ERROR_UNKNOWN_KIND 7
/** Text that is not valid UTF-8. */
#define TESS_ERROR_INVALID_UTF8 8
/** Text offsets that decrease or point past the text buffer. */
#define TESS_ERROR_INVALID_TEXT_OFFSETS 9
/** A profile that is not valid JSON, breaks the schema, is inconsistent, or names a font
 *  that cannot be found or loaded. */
#define TESS_ERROR_INVALID_PROFILE 10
/** Font data that is not a usable OpenType/TrueType font. */
#define TESS_ERROR_INVALID_FONT 11
/** A file that could not be read. */
#define TESS_ERROR_IO 12
/** More rows, kinds, slots or text than the fixed-width internals address. */
#define TESS_ERROR_CAPACITY 13
/** The host measure callback returned NaN, an infinite or a negative width. */
#define TESS_ERROR_CALLBACK 14
/** A row that breaks a rule of its kind, or a slot value that does not parse. */
#define TESS_ERROR_RULE_VIOLATION 15
/** A layout environment the profile cannot lay out. */
#define TESS_ERROR_INVALID_ENVIRONMENT 16
/** The call needs state the handle does not have yet (e.g. reading a diff before any). */
#define TESS_ERROR_NO_RESULT 17
/** Any other failure of the engine (the message says what). */
#define TESS_ERROR_INTERNAL 18

/** The constant's name without the prefix ("OK", "NULL_ARGUMENT", …); "UNKNOWN" for a
 *  value that is not a status. Static storage; never NULL. */
const char *TESS_RETURNS_NONNULL tess_status_name(tess_status status);

/**
 * The message of the last failed call on `handle` (any tess_*_t handle), or "" when none
 * failed. A successful call does not clear it. With `handle` NULL: the last failure of a
 * call without a handle (create/load) on the calling thread.
 *
 * The string belongs to the library and stays valid until the next failing call on the
 * same handle (NULL: on the same thread) or the handle's destruction. Never NULL.
 */
const char *TESS_RETURNS_NONNULL tess_last_error(const void *TESS_NULLABLE handle);

/* ===================================================================================== */
/* Shared value types                                                                     */
/* ===================================================================================== */

/** Platforms a profile lays out for. */
#define TESS_PLATFORM_IOS 0
#define TESS_PLATFORM_ANDROID 1

/** Row flags (`tess_visible_row.flags`, `tess_row_info.flags`). */
#define TESS_ROW_MEASURED 0x0001  /* the height is a measurement; owned by the engine */
#define TESS_ROW_SELECTED 0x0002  /* selected in edit mode */
#define TESS_ROW_UNREAD 0x0004    /* shows the unread indicator */
#define TESS_ROW_SWIPE_OPEN 0x0008 /* swiped open, revealing its actions */
/** The flags a host may set or clear (`tess_engine_update_flags`). */
#define TESS_ROW_HOST_SETTABLE 0x000E

/**
 * Text for a batch of rows: one UTF-8 buffer and `rows * slots_per_row + 1` byte offsets,
 * so slot `s` of row `r` is `utf8[offsets[r * slots_per_row + s] .. offsets[r *
 * slots_per_row + s + 1])`. Offsets must not decrease and must not pass `byte_count`.
 * A single row's slots are the case rows = 1.
 */
typedef struct tess_text_columns {
    /** The bytes; may be NULL only when byte_count is 0. Borrowed for the call. */
    const char *TESS_NULLABLE utf8;
    int64_t byte_count;
    /** rows * slots_per_row + 1 offsets; NULL is an error. Borrowed for the call. */
    const int64_t *TESS_NULLABLE offsets;
    /** 0...255. */
    int64_t slots_per_row;
} tess_text_columns;

/* ===================================================================================== */
/* Fonts                                                                                  */
/* ===================================================================================== */

/** An OpenType/TrueType face (cmap, hmtx, hhea, OS/2, kerning). Immutable: it may be
 *  shared by text styles used on several threads. */
typedef struct tess_font tess_font_t;

typedef struct tess_font_info {
    int32_t units_per_em;
    /** Line metrics in font units, as the engine uses them (hhea, or OS/2 typo metrics when
     *  the font asks for them). descender is negative. */
    int32_t ascender;
    int32_t descender;
    int32_t line_gap;
    int64_t glyph_count;
} tess_font_info;

/** Loads face `face_index` (0 unless a .ttc) of the font file at `path` (UTF-8,
 *  `path_length` bytes). `*out` receives a new handle (NULL on failure). */
tess_status tess_font_load_path(const char *TESS_NONNULL path, int64_t path_length, int64_t face_index,
                                tess_font_t *TESS_NULLABLE *TESS_NONNULL out);

/** Loads a face from font bytes. The bytes are copied; the caller may free them after. */
tess_status tess_font_load_bytes(const void *TESS_NONNULL bytes, int64_t byte_count, int64_t face_index,
                                 tess_font_t *TESS_NULLABLE *TESS_NONNULL out);

/** Releases the caller's reference; styles made from the font keep their own. */
void tess_font_destroy(tess_font_t *TESS_NULLABLE font);

tess_status tess_font_get_info(const tess_font_t *TESS_NONNULL font, tess_font_info *TESS_NONNULL out);

/** The advance width in points of `utf8` in this face at `size` points (advances plus pair
 *  kerning, marks zero, no fallback), as the built-in shaper measures a run. */
tess_status tess_font_text_width(const tess_font_t *TESS_NONNULL font, const char *TESS_NULLABLE utf8,
                                 int64_t byte_count, double size, double *TESS_NONNULL out_width);

/* ===================================================================================== */
/* Text styles and the text layout engine                                                 */
/* ===================================================================================== */

/** A font chain (each code point set in the first face that has it), size, line height and
 *  letter spacing. Immutable. */
typedef struct tess_text_style tess_text_style_t;

/**
 * A style over `font_count` (>= 1) fonts. `line_height` 0 means the first font's line
 * height at `size`; otherwise finite and > 0. `size` finite and > 0; `letter_spacing`
 * finite (may be negative). The style keeps its own references to the fonts.
 */
tess_status tess_text_style_create(const tess_font_t *TESS_NONNULL const *TESS_NONNULL fonts, int64_t font_count,
                                   double size, double line_height, double letter_spacing,
                                   tess_text_style_t *TESS_NULLABLE *TESS_NONNULL out);

void tess_text_style_destroy(tess_text_style_t *TESS_NULLABLE style);

/**
 * A host measure callback: the advance width in points of one run of `byte_count` (> 0)
 * bytes of valid UTF-8 at `utf8` (not NUL-terminated, valid only during the call) set in
 * face `face_index` of the style's fonts (always 0 unless the engine was created with
 * uses_font_fallback) at `size` points, without letter spacing. It must be deterministic
 * (results are cached) and, when a bulk call runs on several threads, thread-safe. A NaN,
 * infinite or negative result fails the call with TESS_ERROR_CALLBACK.
 */
typedef double (*tess_measure_fn)(void *TESS_NULLABLE context, const char *TESS_NONNULL utf8, int64_t byte_count,
                                  int32_t face_index, double size);

/** The text layout engine: UAX #14 line breaking, grapheme-safe emergency breaks, and three
 *  bounded caches in front of the shaper. One thread at a time. */
typedef struct tess_text_engine tess_text_engine_t;

/** Byte budgets of the three caches: 0 turns one off, at most 1 GiB (1 << 30) each; a
 *  cache's arena is allocated at its full budget on first use. */
typedef struct tess_cache_budgets {
    int64_t segment_bytes;       /* default 32 MiB */
    int64_t prepared_text_bytes; /* default 16 MiB */
    int64_t line_break_bytes;    /* default 8 MiB */
} tess_cache_budgets;

typedef struct tess_cache_statistics {
    int64_t hits;
    int64_t misses;
    int64_t evictions;
    int64_t entries;
    int64_t bytes;
    int64_t budget;
    /** Lookups the cache did not serve by design (e.g. printable-ASCII segments). */
    int64_t bypasses;
} tess_cache_statistics;

typedef struct tess_text_statistics {
    tess_cache_statistics segments;
    tess_cache_statistics prepared_texts;
    tess_cache_statistics line_breaks;
} tess_text_statistics;

typedef struct tess_text_metrics {
    int64_t line_count;
    double height;
    /** The widest line, in points. */
    double width;
    /** 1 when max_lines cut the text (the last line ends in an ellipsis), else 0. */
    int32_t truncated;
    int32_t reserved;
} tess_text_metrics;

typedef struct tess_text_line {
    /** Byte range of the line in the text. */
    int64_t start;
    int64_t end;
    double width;
    /** 1 when the line ends in an ellipsis. */
    int32_t ellipsized;
    int32_t reserved;
} tess_text_line;

/** An engine over the built-in shaper (the fonts' own metrics). `budgets` NULL: defaults. */
tess_status tess_text_engine_create(const tess_cache_budgets *TESS_NULLABLE budgets,
                                    tess_text_engine_t *TESS_NULLABLE *TESS_NONNULL out);

/**
 * An engine whose shaper is the host's `measure` (Android's Paint.measureText, say).
 * `context` is passed back untouched; the caller keeps it valid until the engine and every
 * measurer using it are destroyed. `uses_font_fallback` 1: the engine splits text into runs
 * by the style's fonts and passes each run's face index; 0: whole segments with face 0.
 */
tess_status tess_text_engine_create_with_callback(tess_measure_fn TESS_NONNULL measure, void *TESS_NULLABLE context,
                                                  int32_t uses_font_fallback,
                                                  const tess_cache_budgets *TESS_NULLABLE budgets,
                                                  tess_text_engine_t *TESS_NULLABLE *TESS_NONNULL out);

/** Releases the caller's reference; measurers created with the engine keep their own. */
void tess_text_engine_destroy(tess_text_engine_t *TESS_NULLABLE engine);

tess_status tess_text_engine_get_statistics(const tess_text_engine_t *TESS_NONNULL engine,
                                            tess_text_statistics *TESS_NONNULL out);

/** Empties every cache (hit and miss counters are kept). */
tess_status tess_text_engine_clear_caches(tess_text_engine_t *TESS_NONNULL engine);

/** Lays out one text at `width` points (finite, > 0) with at most `max_lines` lines (0:
 *  unlimited; negative is an error). */
tess_status tess_text_measure(tess_text_engine_t *TESS_NONNULL engine, const tess_text_style_t *TESS_NONNULL style,
                              const char *TESS_NULLABLE utf8, int64_t byte_count, double width, int64_t max_lines,
                              tess_text_metrics *TESS_NONNULL out);

/** `tess_text_measure` plus the lines, into `lines` (capacity in, `*count` out).
 *  `metrics` may be NULL. */
tess_status tess_text_measure_lines(tess_text_engine_t *TESS_NONNULL engine, const tess_text_style_t *TESS_NONNULL style,
                                    const char *TESS_NULLABLE utf8, int64_t byte_count, double width, int64_t max_lines,
                                    tess_text_line *TESS_NULLABLE lines, int64_t capacity, int64_t *TESS_NONNULL count,
                                    tess_text_metrics *TESS_NULLABLE metrics);

/** Lays out `text_count` texts at once: text `i` is `utf8[offsets[i] .. offsets[i + 1])`
 *  (`text_count + 1` offsets). Results into `results` (capacity >= text_count). `threads`
 *  >= 1; more than 1 measures in parallel (a callback must then be thread-safe). */
tess_status tess_text_measure_bulk(tess_text_engine_t *TESS_NONNULL engine, const tess_text_style_t *TESS_NONNULL style,
                                   const char *TESS_NULLABLE utf8, int64_t byte_count,
                                   const int64_t *TESS_NONNULL offsets, int64_t text_count, double width,
                                   int64_t max_lines, int64_t threads, tess_text_metrics *TESS_NULLABLE results,
                                   int64_t capacity);

/* ===================================================================================== */
/* Profiles                                                                               */
/* ===================================================================================== */

/** A design system's cell kinds (Profiles/README.md). Immutable; shareable between
 *  threads. */
typedef struct tess_profile tess_profile_t;

#define TESS_KIND_ROLE_CELL 0
#define TESS_KIND_ROLE_HEADER 1
#define TESS_KIND_ROLE_FOOTER 2

typedef struct tess_kind_info {
    /** The number rows of this kind carry as their kind. */
    uint16_t code;
    uint16_t reserved;
    /** TESS_KIND_ROLE_ */
    int32_t role;
    /** 1 for a header that sticks to the top while its group scrolls. */
    int32_t sticky;
    /** Values (text slots) a row of the kind carries. */
    int32_t value_count;
    /** Elements of the kind (`tess_profile_slot_info`). */
    int32_t slot_count;
    int32_t reserved2;
    double estimated_height_ios;
    double estimated_height_android;
} tess_kind_info;

#define TESS_SLOT_TEXT 0
#define TESS_SLOT_TEXT_LIST 1
#define TESS_SLOT_BUTTON 2
#define TESS_SLOT_BOX 3
#define TESS_SLOT_IMAGE 4
#define TESS_SLOT_BOX_STACK 5

typedef struct tess_slot_info {
    /** TESS_SLOT_ */
    int32_t type;
    /** The value index the slot reads, or -1 for an always-present slot. */
    int32_t value_index;
    int32_t required;
    int32_t reserved;
} tess_slot_info;

/**
 * Loads a profile from a JSON file. `font_dirs` is a ':'-separated list of directories in
 * which the font files the profile names are looked up (UTF-8, `font_dirs_length` bytes);
 * NULL: Debian's font directories.
 */
tess_status tess_profile_load_path(const char *TESS_NONNULL path, int64_t path_length,
                                   const char *TESS_NULLABLE font_dirs, int64_t font_dirs_length,
                                   tess_profile_t *TESS_NULLABLE *TESS_NONNULL out);

/** Loads a profile from JSON bytes whose font files are given as loaded fonts, for hosts
 *  that hold fonts as bytes (an Android app's assets, `tess_font_load_bytes`): the file
 *  the profile names `file_names[i]` (UTF-8, `file_name_lengths[i]` bytes) is served by
 *  `fonts[i]`; other files are looked up in `font_dirs` as `tess_profile_load_bytes` does.
 *  The profile keeps what it needs of the fonts; the caller may destroy its handles. The
 *  three arrays may be NULL only when `font_count` is 0. */
tess_status tess_profile_load_bytes_with_fonts(const char *TESS_NONNULL json, int64_t byte_count,
                                               const char *TESS_NONNULL const *TESS_NULLABLE file_names,
                                               const int64_t *TESS_NULLABLE file_name_lengths,
                                               const tess_font_t *TESS_NONNULL const *TESS_NULLABLE fonts,
                                               int64_t font_count, const char *TESS_NULLABLE font_dirs,
                                               int64_t font_dirs_length, tess_profile_t *TESS_NULLABLE *TESS_NONNULL out);

/** Loads a profile from JSON bytes (copied as needed; the caller may free them after). */
tess_status tess_profile_load_bytes(const char *TESS_NONNULL json, int64_t byte_count,
                                    const char *TESS_NULLABLE font_dirs, int64_t font_dirs_length,
                                    tess_profile_t *TESS_NULLABLE *TESS_NONNULL out);

void tess_profile_destroy(tess_profile_t *TESS_NULLABLE profile);

/** The profile's name (file stem, e.g. "george"): bytes into `buffer`, `*length` out. */
tess_status tess_profile_get_name(const tess_profile_t *TESS_NONNULL profile, char *TESS_NULLABLE buffer,
                                  int64_t capacity, int64_t *TESS_NONNULL length);

tess_status tess_profile_kind_count(const tess_profile_t *TESS_NONNULL profile, int64_t *TESS_NONNULL count);

/** Kind `index` (0 ..< kind count, document order, not the code). */
tess_status tess_profile_kind_info(const tess_profile_t *TESS_NONNULL profile, int64_t index,
                                   tess_kind_info *TESS_NONNULL out);

tess_status tess_profile_kind_name(const tess_profile_t *TESS_NONNULL profile, int64_t index,
                                   char *TESS_NULLABLE buffer, int64_t capacity, int64_t *TESS_NONNULL length);

/** Element `slot` (0 ..< slot_count) of kind `index`. */
tess_status tess_profile_slot_info(const tess_profile_t *TESS_NONNULL profile, int64_t index, int64_t slot,
                                   tess_slot_info *TESS_NONNULL out);

tess_status tess_profile_slot_name(const tess_profile_t *TESS_NONNULL profile, int64_t index, int64_t slot,
                                   char *TESS_NULLABLE buffer, int64_t capacity, int64_t *TESS_NONNULL length);

/** Estimated heights indexed by kind code (unused codes 0), as `tess_engine_create`
 *  takes them. */
tess_status tess_profile_estimated_heights(const tess_profile_t *TESS_NONNULL profile, int32_t platform,
                                           double *TESS_NULLABLE heights, int64_t capacity,
                                           int64_t *TESS_NONNULL count);

/* ===================================================================================== */
/* Cell measurer: a profile's kinds in one layout environment                             */
/* ===================================================================================== */

/** Measures rows of a profile's kinds: heights, rule validation, element frames. One thread
 *  at a time (with its text engine). */
typedef struct tess_measurer tess_measurer_t;

typedef struct tess_environment {
    /** Content width in points: finite, > 0, at most 1,000,000. */
    double width;
    /** TESS_PLATFORM_; one of the profile's platforms. */
    int32_t platform;
    /** 1: edit mode (selection control on the leading side). */
    int32_t edit_mode;
    /** Accessibility font scale; 1 is iOS Large / Android 100 %. Finite, > 0, at most 10. */
    double font_scale;
} tess_environment;

/** Element types of `tess_element_frame`. */
#define TESS_ELEMENT_SLOT 0    /* a present slot's frame */
#define TESS_ELEMENT_TEXT 1    /* one text of the slot before it (text, list item, label) */
#define TESS_ELEMENT_BOX 2     /* one box of the box stack before it */
#define TESS_ELEMENT_DIVIDER 3 /* the divider at the cell's bottom edge (height 0) */

/** One element of a laid-out cell, relative to the cell's top-leading corner. */
typedef struct tess_element_frame {
    /** TESS_ELEMENT_ */
    int32_t type;
    /** The slot's index in its kind (`tess_profile_slot_info`); -1 for the divider. */
    int32_t slot;
    /** The slot's value index, or -1. */
    int32_t value_index;
    /** TEXT and BOX: the position within the slot (list item, box); else -1. */
    int32_t item;
    double x;
    double y;
    double width;
    double height;
    /** TEXT: the text's byte range in the slot's value; else 0, 0. */
    int64_t byte_start;
    int64_t byte_end;
    /** TEXT: its line count and whether it was truncated; else 0. */
    int32_t line_count;
    int32_t truncated;
} tess_element_frame;

/**
 * A measurer of `profile` in `environment`. `text_engine` NULL: a new engine with the
 * built-in shaper and default caches; otherwise the measurer keeps its own reference to it
 * (the caller may destroy its handle after), and the two count as one handle for threading.
 * The measurer keeps its own reference to the profile.
 */
tess_status tess_measurer_create(const tess_profile_t *TESS_NONNULL profile,
                                 const tess_environment *TESS_NONNULL environment,
                                 tess_text_engine_t *TESS_NULLABLE text_engine,
                                 tess_measurer_t *TESS_NULLABLE *TESS_NONNULL out);

void tess_measurer_destroy(tess_measurer_t *TESS_NULLABLE measurer);

/** Recompiles every kind for a new environment. On error nothing changes. */
tess_status tess_measurer_set_environment(tess_measurer_t *TESS_NONNULL measurer,
                                          const tess_environment *TESS_NONNULL environment);

/** Sets one of the profile's parameters (by name) to `value` for later layouts. */
tess_status tess_measurer_set_parameter(tess_measurer_t *TESS_NONNULL measurer, const char *TESS_NONNULL name,
                                        int64_t name_length, int64_t value);

tess_status tess_measurer_get_environment(const tess_measurer_t *TESS_NONNULL measurer,
                                          tess_environment *TESS_NONNULL out);

/** The width class of the environment's width ("compact", "regular", …). */
tess_status tess_measurer_width_class(const tess_measurer_t *TESS_NONNULL measurer, char *TESS_NULLABLE buffer,
                                      int64_t capacity, int64_t *TESS_NONNULL length);

/** Checks one row of kind code `kind` against its kind's rules; `row` is only used in the
 *  message. `text` holds the row's slots (its rows is 1). */
tess_status tess_measurer_validate(tess_measurer_t *TESS_NONNULL measurer, uint16_t kind,
                                   const tess_text_columns *TESS_NONNULL text, int64_t row);

/** Heights of `row_count` rows (`kinds[i]` codes, `text` their slots) into `heights`
 *  (capacity >= row_count). Every row is validated first; on error nothing is written. */
tess_status tess_measurer_heights(tess_measurer_t *TESS_NONNULL measurer, const uint16_t *TESS_NONNULL kinds,
                                  int64_t row_count, const tess_text_columns *TESS_NONNULL text,
                                  double *TESS_NULLABLE heights, int64_t capacity);

/** The frames of every present element of one valid row, in order (each slot followed by
 *  its texts or boxes, the divider last); the cell's size into `cell_width`/`cell_height`
 *  (each may be NULL). */
tess_status tess_measurer_frames(tess_measurer_t *TESS_NONNULL measurer, uint16_t kind,
                                 const tess_text_columns *TESS_NONNULL text, tess_element_frame *TESS_NULLABLE frames,
                                 int64_t capacity, int64_t *TESS_NONNULL count, double *TESS_NULLABLE cell_width,
                                 double *TESS_NULLABLE cell_height);

/* ===================================================================================== */
/* Engine: the rows, their geometry, the viewport and the scroll anchor                   */
/* ===================================================================================== */

/** A list: rows in struct-of-arrays pages, heights in a summary tree, a viewport and a
 *  scroll anchor. Every change returns the corrected scroll offset that keeps the row under
 *  the user's eye still. One thread at a time. */
typedef struct tess_engine tess_engine_t;

/** One row of a window (40 bytes). */
typedef struct tess_visible_row {
    int64_t row;
    uint64_t id;
    /** Top edge, points from the top of the content. */
    double y;
    double height;
    uint16_t kind;
    /** TESS_ROW_ flags. */
    uint16_t flags;
    uint32_t reserved;
} tess_visible_row;

typedef struct tess_row_info {
    uint64_t id;
    double height;
    uint16_t kind;
    uint16_t flags;
    uint32_t reserved;
} tess_row_info;

/** Where scroll-to-row puts the row in the viewport. */
#define TESS_SCROLL_TOP 0
#define TESS_SCROLL_CENTER 1
#define TESS_SCROLL_BOTTOM 2

/** An empty list whose kinds 0 ..< kind_count start at `estimated_heights` (points, each
 *  finite, >= 0 and <= 262,143.98) until measured; `viewport` is the visible height. */
tess_status tess_engine_create(const double *TESS_NONNULL estimated_heights, int64_t kind_count, double viewport,
                               tess_engine_t *TESS_NULLABLE *TESS_NONNULL out);

void tess_engine_destroy(tess_engine_t *TESS_NULLABLE engine);

tess_status tess_engine_row_count(const tess_engine_t *TESS_NONNULL engine, int64_t *TESS_NONNULL count);

/** The height of all rows (measured or estimated), in points. */
tess_status tess_engine_total_height(const tess_engine_t *TESS_NONNULL engine, double *TESS_NONNULL out);

/**
 * Inserts `count` rows before row `index` (0 ... row count): ids (unique, new), kinds (<
 * kind_count), `heights` measured heights or NULL for the kinds' estimates, `text` their
 * slots or NULL for none. All or nothing. `scroll_offset` (may be NULL) receives the
 * corrected scroll offset.
 */
tess_status tess_engine_insert(tess_engine_t *TESS_NONNULL engine, int64_t index, const uint64_t *TESS_NULLABLE ids,
                               const uint16_t *TESS_NULLABLE kinds, const double *TESS_NULLABLE heights, int64_t count,
                               const tess_text_columns *TESS_NULLABLE text, double *TESS_NULLABLE scroll_offset);

/** `tess_engine_insert` at the end: a million rows in one call. `ids` and `kinds` may be
 *  NULL only when count is 0. */
tess_status tess_engine_append(tess_engine_t *TESS_NONNULL engine, const uint64_t *TESS_NULLABLE ids,
                               const uint16_t *TESS_NULLABLE kinds, const double *TESS_NULLABLE heights, int64_t count,
                               const tess_text_columns *TESS_NULLABLE text, double *TESS_NULLABLE scroll_offset);

/** Removes rows `start ..< start + count`. */
tess_status tess_engine_remove(tess_engine_t *TESS_NONNULL engine, int64_t start, int64_t count,
                               double *TESS_NULLABLE scroll_offset);

/** Records measured heights for rows `start ..< start + count`. All or nothing. */
tess_status tess_engine_set_heights(tess_engine_t *TESS_NONNULL engine, int64_t start,
                                    const double *TESS_NULLABLE heights, int64_t count,
                                    double *TESS_NULLABLE scroll_offset);

/** Returns a row to its kind's estimate and marks it unmeasured (its content changed). */
tess_status tess_engine_invalidate_height(tess_engine_t *TESS_NONNULL engine, int64_t row,
                                          double *TESS_NULLABLE scroll_offset);

/** Sets and clears host-settable flags (selection, unread, swipe open) of a row. */
tess_status tess_engine_update_flags(tess_engine_t *TESS_NONNULL engine, int64_t row, uint16_t set_flags,
                                     uint16_t clear_flags);

tess_status tess_engine_get_row(const tess_engine_t *TESS_NONNULL engine, int64_t row,
                                tess_row_info *TESS_NONNULL out);

/** Text slot `slot` of a row (empty when the row has fewer slots). */
tess_status tess_engine_row_text(const tess_engine_t *TESS_NONNULL engine, int64_t row, int64_t slot,
                                 char *TESS_NULLABLE buffer, int64_t capacity, int64_t *TESS_NONNULL length);

/** The row index of `id` (TESS_ERROR_UNKNOWN_ID when absent). */
tess_status tess_engine_index_of(const tess_engine_t *TESS_NONNULL engine, uint64_t id, int64_t *TESS_NONNULL row);

/** The offset of a row's top edge. */
tess_status tess_engine_offset_of_row(const tess_engine_t *TESS_NONNULL engine, int64_t row,
                                      double *TESS_NONNULL offset);

/** The row covering offset `y` and how far into it `y` lies; `*row` is -1 (and
 *  `*offset_in_row` 0) at or past the end of the content. */
tess_status tess_engine_row_at_offset(const tess_engine_t *TESS_NONNULL engine, double y, int64_t *TESS_NONNULL row,
                                      double *TESS_NULLABLE offset_in_row);

/** Scrolls to `offset` (clamped to 0 ... max scroll offset) and anchors there; the clamped
 *  offset into `scroll_offset` (may be NULL). */
tess_status tess_engine_scroll_to(tess_engine_t *TESS_NONNULL engine, double offset,
                                  double *TESS_NULLABLE scroll_offset);

tess_status tess_engine_get_scroll_offset(const tess_engine_t *TESS_NONNULL engine, double *TESS_NONNULL out);

/** The furthest the content scrolls: max(total height - viewport, 0). */
tess_status tess_engine_max_scroll_offset(const tess_engine_t *TESS_NONNULL engine, double *TESS_NONNULL out);

/** Changes the viewport height; the scroll offset is clamped to the new range. */
tess_status tess_engine_set_viewport(tess_engine_t *TESS_NONNULL engine, double viewport,
                                     double *TESS_NULLABLE scroll_offset);

tess_status tess_engine_get_viewport(const tess_engine_t *TESS_NONNULL engine, double *TESS_NONNULL out);

/** The scroll anchor: the first visible row's id and how far into it the viewport's top
 *  is. `*has_anchor` 0 (id and offset 0) while the list is empty. */
tess_status tess_engine_get_anchor(const tess_engine_t *TESS_NONNULL engine, int32_t *TESS_NONNULL has_anchor,
                                   uint64_t *TESS_NULLABLE id, double *TESS_NULLABLE offset_in_row);

/** The scroll offset that shows `row` at the top, centre or bottom (TESS_SCROLL_) of the
 *  engine's viewport, clamped to the scrollable range. Does not scroll. */
tess_status tess_engine_scroll_offset_to_row(const tess_engine_t *TESS_NONNULL engine, int64_t row, int32_t position,
                                             double *TESS_NONNULL offset);

/** The rows intersecting [scroll offset - overscan, scroll offset + viewport + overscan),
 *  in order, into `rows`. Allocates nothing. */
tess_status tess_engine_window(const tess_engine_t *TESS_NONNULL engine, double overscan,
                               tess_visible_row *TESS_NULLABLE rows, int64_t capacity, int64_t *TESS_NONNULL count);

/** The rows intersecting [offset - overscan_before, offset + viewport + overscan_after) for
 *  any offset and viewport (the engine's scroll state is not used or changed). */
tess_status tess_engine_window_at(const tess_engine_t *TESS_NONNULL engine, double offset, double viewport,
                                  double overscan_before, double overscan_after, tess_visible_row *TESS_NULLABLE rows,
                                  int64_t capacity, int64_t *TESS_NONNULL count);

/* ===================================================================================== */
/* Keyed diff                                                                             */
/* ===================================================================================== */

/** Diffs two snapshots of rows (ids + content versions) into a batch (UIKit
 *  performBatchUpdates form) and sequential operations (RecyclerView notifyItem… form).
 *  Keeps its scratch and its last result. One thread at a time. */
typedef struct tess_differ tess_differ_t;

typedef struct tess_diff_counts {
    int64_t old_count;
    int64_t new_count;
    int64_t deletes;
    int64_t inserts;
    int64_t moves;
    int64_t updates;
    int64_t operations;
} tess_diff_counts;

/** Which index list of the batch `tess_differ_indexes` reads. */
#define TESS_DIFF_DELETES 0             /* old indexes of removed rows, ascending */
#define TESS_DIFF_INSERTS 1             /* new indexes of new rows, ascending */
#define TESS_DIFF_UPDATES 2             /* old indexes of surviving rows whose version changed */
#define TESS_DIFF_UPDATED_NEW_INDEXES 3 /* the same rows at their new indexes, ascending */

typedef struct tess_diff_move {
    int64_t from; /* old index */
    int64_t to;   /* new index */
} tess_diff_move;

/** Sequential operation types. */
#define TESS_OP_REMOVE 0 /* notifyItemRangeRemoved(a, b): at a, count b */
#define TESS_OP_INSERT 1 /* notifyItemRangeInserted(a, b) */
#define TESS_OP_MOVE 2   /* notifyItemMoved(a, b): from a, to b */
#define TESS_OP_CHANGE 3 /* notifyItemRangeChanged(a, b) */

typedef struct tess_diff_operation {
    int32_t type;
    int32_t reserved;
    int64_t a;
    int64_t b;
} tess_diff_operation;

tess_status tess_differ_create(tess_differ_t *TESS_NULLABLE *TESS_NONNULL out);

void tess_differ_destroy(tess_differ_t *TESS_NULLABLE differ);

/** Diffs old rows (ids + versions, `old_count`) into new ones; the result replaces the
 *  differ's last one (on error the last one stays). Ids must be unique on each side.
 *  `counts` may be NULL. Arrays may be NULL only when their count is 0. */
tess_status tess_differ_diff(tess_differ_t *TESS_NONNULL differ, const uint64_t *TESS_NULLABLE old_ids,
                             const uint64_t *TESS_NULLABLE old_versions, int64_t old_count,
                             const uint64_t *TESS_NULLABLE new_ids, const uint64_t *TESS_NULLABLE new_versions,
                             int64_t new_count, tess_diff_counts *TESS_NULLABLE counts);

tess_status tess_differ_get_counts(const tess_differ_t *TESS_NONNULL differ, tess_diff_counts *TESS_NONNULL out);

/** One index list of the last batch (TESS_DIFF_). */
tess_status tess_differ_indexes(const tess_differ_t *TESS_NONNULL differ, int32_t which,
                                int64_t *TESS_NULLABLE indexes, int64_t capacity, int64_t *TESS_NONNULL count);

/** The moves of the last batch, ascending by new index. */
tess_status tess_differ_moves(const tess_differ_t *TESS_NONNULL differ, tess_diff_move *TESS_NULLABLE moves,
                              int64_t capacity, int64_t *TESS_NONNULL count);

/** The last batch as sequential operations, each index valid when it is applied. */
tess_status tess_differ_operations(const tess_differ_t *TESS_NONNULL differ,
                                   tess_diff_operation *TESS_NULLABLE operations, int64_t capacity,
                                   int64_t *TESS_NONNULL count);

/* ===================================================================================== */
/* Profile-driven engine (ABI version 2)                                                  */
/* ===================================================================================== */
/*
 * A `tess_engine_t` made by `tess_engine_create_with_profile` holds rows of a profile's
 * kinds with their values and measures them itself: rows are validated against their
 * kind's rules and the profile's group rules when they arrive, start at their kind's
 * estimate flagged TESS_ROW_DIRTY, and get their exact height from `tess_engine_measure`
 * or `tess_engine_measure_all`. Every `tess_engine_` function above works on it too, with
 * these differences: `heights` passed to insert/append and `tess_engine_set_heights` are
 * TESS_ERROR_INVALID_ARGUMENT (the engine measures), and `tess_engine_invalidate_height`
 * keeps the row's height and marks it dirty. In a grid profile the rows `tess_engine_window`
 * reports are items whose height is their line's (on the line's first item, 0 on the
 * others); `tess_engine_items` reports each item's own frame.
 */

/** Row flags the engine owns besides TESS_ROW_MEASURED. */
#define TESS_ROW_DIRTY 0x0010   /* waiting to be measured (profile-driven engines) */
#define TESS_ROW_DIVIDER 0x0020 /* in `tess_visible_item.flags` only: draws its divider */

/** A batch applied to an engine that changed since it was prepared, or prepared for another
 *  engine (`tess_engine_apply_prepared`). */
#define TESS_ERROR_STALE_BATCH 19
/** A swipe or selection the row does not allow now (a header or footer, a kind without
 *  selection, selection outside edit mode, swipe in edit mode). */
#define TESS_ERROR_NOT_ALLOWED 20

/**
 * Values of a profile's parameters by name: `count` names in one UTF-8 buffer,
 * name `i` being `names_utf8[name_offsets[i] .. name_offsets[i + 1])`, and their values.
 * Parameters not named keep their current values (the profile's defaults at creation).
 */
typedef struct tess_parameters {
    /** May be NULL only when `names_byte_count` is 0. Borrowed for the call. */
    const char *TESS_NULLABLE names_utf8;
    int64_t names_byte_count;
    /** count + 1 offsets; may be NULL only when count is 0. Borrowed for the call. */
    const int64_t *TESS_NULLABLE name_offsets;
    /** count values; may be NULL only when count is 0. Borrowed for the call. */
    const int64_t *TESS_NULLABLE values;
    int64_t count;
} tess_parameters;

/**
 * An empty list of `profile`'s kinds laid out in `environment` (`parameters` NULL: the
 * profile's defaults), `viewport` points tall, measuring `overscan` points beyond each edge
 * of the viewport first and reporting them in `tess_engine_items` (finite, >= 0).
 * `text_engine` NULL: a new engine with the built-in shaper and default caches; otherwise the
 * engine keeps its own reference to it (a host measure callback then measures every row, and
 * must be thread-safe for `tess_engine_measure_all` with threads > 1), and the two count as
 * one handle for threading. The engine keeps its own reference to the profile.
 */
tess_status tess_engine_create_with_profile(const tess_profile_t *TESS_NONNULL profile,
                                            const tess_environment *TESS_NONNULL environment,
                                            const tess_parameters *TESS_NULLABLE parameters, double viewport,
                                            double overscan, tess_text_engine_t *TESS_NULLABLE text_engine,
                                            tess_engine_t *TESS_NULLABLE *TESS_NONNULL out);

/** 1 when the engine was made from a profile, else 0. */
tess_status tess_engine_has_profile(const tess_engine_t *TESS_NONNULL engine, int32_t *TESS_NONNULL out);

/**
 * Inserts `count` rows before row `index` (0 ... row count), with content versions: `ids`
 * (unique, new), `kinds` (codes of the profile, or < kind_count of a store-driven engine),
 * `versions` (NULL: all 0; compared by `tess_engine_apply`), `text` the rows' values (NULL:
 * none). A profile-driven engine checks every row against its kind's rules and the groups it
 * joins first. All or nothing; `scroll_offset` (may be NULL) receives the corrected offset.
 * No per-row call: a million rows cross in one call.
 */
tess_status tess_engine_insert_rows(tess_engine_t *TESS_NONNULL engine, int64_t index,
                                    const uint64_t *TESS_NULLABLE ids, const uint16_t *TESS_NULLABLE kinds,
                                    const uint64_t *TESS_NULLABLE versions, int64_t count,
                                    const tess_text_columns *TESS_NULLABLE text, double *TESS_NULLABLE scroll_offset);

/** `tess_engine_insert_rows` at the end. `ids` and `kinds` may be NULL only when count is 0. */
tess_status tess_engine_append_rows(tess_engine_t *TESS_NONNULL engine, const uint64_t *TESS_NULLABLE ids,
                                    const uint16_t *TESS_NULLABLE kinds, const uint64_t *TESS_NULLABLE versions,
                                    int64_t count, const tess_text_columns *TESS_NULLABLE text,
                                    double *TESS_NULLABLE scroll_offset);

/**
 * Replaces the content of `count` rows by id in place: `versions` (new content versions)
 * and `text` (their new values, one row per id in `ids` order; NULL: none). Each row keeps
 * its kind, place, flags, swipe and selection state. A profile-driven engine checks every
 * row against its kind's rules first and marks it dirty (its height stays until measured);
 * a store-driven engine returns it to its kind's estimate. All or nothing; unknown or
 * repeated ids fail the call. `ids` and `versions` may be NULL only when count is 0.
 */
tess_status tess_engine_update_rows(tess_engine_t *TESS_NONNULL engine, const uint64_t *TESS_NULLABLE ids,
                                    const uint64_t *TESS_NULLABLE versions, int64_t count,
                                    const tess_text_columns *TESS_NULLABLE text, double *TESS_NULLABLE scroll_offset);

/** A row's content version. */
tess_status tess_engine_row_version(const tess_engine_t *TESS_NONNULL engine, int64_t row,
                                    uint64_t *TESS_NONNULL version);

/* --- The environment. Each setter marks the rows whose height may change dirty (nothing is
 *     measured) and returns the corrected scroll offset; on error nothing changes. A
 *     store-driven engine answers TESS_ERROR_INVALID_ARGUMENT. --- */

tess_status tess_engine_get_environment(const tess_engine_t *TESS_NONNULL engine, tess_environment *TESS_NONNULL out);

/** Replaces width, platform, edit mode and font scale at once (parameters stay). */
tess_status tess_engine_set_environment(tess_engine_t *TESS_NONNULL engine,
                                        const tess_environment *TESS_NONNULL environment,
                                        double *TESS_NULLABLE scroll_offset);

/** The content width; the width class follows from it (`tess_engine_width_class`). */
tess_status tess_engine_set_width(tess_engine_t *TESS_NONNULL engine, double width,
                                  double *TESS_NULLABLE scroll_offset);

/** 0 or 1. */
tess_status tess_engine_set_edit_mode(tess_engine_t *TESS_NONNULL engine, int32_t edit_mode,
                                      double *TESS_NULLABLE scroll_offset);

tess_status tess_engine_set_font_scale(tess_engine_t *TESS_NONNULL engine, double font_scale,
                                       double *TESS_NULLABLE scroll_offset);

/** TESS_PLATFORM_; rows never measured move to the new platform's estimates. */
tess_status tess_engine_set_platform(tess_engine_t *TESS_NONNULL engine, int32_t platform,
                                     double *TESS_NULLABLE scroll_offset);

/** Sets the named parameters; a stored row that breaks its rules under the new values fails
 *  the call (TESS_ERROR_RULE_VIOLATION) and nothing changes. */
tess_status tess_engine_set_parameters(tess_engine_t *TESS_NONNULL engine,
                                       const tess_parameters *TESS_NONNULL parameters,
                                       double *TESS_NULLABLE scroll_offset);

/** The width class of the environment's width ("compact", "regular", …; the profile's
 *  breakpoints decide it): bytes into `buffer`, `*length` out. */
tess_status tess_engine_width_class(const tess_engine_t *TESS_NONNULL engine, char *TESS_NULLABLE buffer,
                                    int64_t capacity, int64_t *TESS_NONNULL length);

/** Sets the width class cells are laid out in, as the host decides it (iOS's horizontal
 *  size class is compact in Slide Over at any width): `name` is one of the profile's
 *  classes (UTF-8, `name_length` bytes). NULL with length 0 goes back to the class the
 *  width falls in. Rows of the kinds the change affects become dirty; other environment
 *  changes keep the class set here. */
tess_status tess_engine_set_width_class(tess_engine_t *TESS_NONNULL engine, const char *TESS_NULLABLE name,
                                        int64_t name_length, double *TESS_NULLABLE scroll_offset);

/** The overscan `tess_engine_measure` measures first and `tess_engine_items` reports
 *  (finite, >= 0). */
tess_status tess_engine_set_overscan(tess_engine_t *TESS_NONNULL engine, double overscan);

tess_status tess_engine_get_overscan(const tess_engine_t *TESS_NONNULL engine, double *TESS_NONNULL out);

/* --- Measurement --- */

/** Budget units of `tess_engine_measure`. */
#define TESS_BUDGET_ROWS 0        /* at most this many rows */
#define TESS_BUDGET_NANOSECONDS 1 /* until this much monotonic time passed (may overrun by a row) */

typedef struct tess_measure_progress {
    /** Rows this call measured. */
    int64_t measured;
    /** Rows still dirty. */
    int64_t remaining;
    /** The corrected scroll offset. */
    double scroll_offset;
} tess_measure_progress;

/** Rows waiting to be measured (TESS_ROW_DIRTY); 0 for a store-driven engine. */
tess_status tess_engine_dirty_count(const tess_engine_t *TESS_NONNULL engine, int64_t *TESS_NONNULL count);

/**
 * Measures dirty rows within a budget (`budget_kind` TESS_BUDGET_, `budget` >= 0): the
 * visible rows first, then the overscan, then outward from the viewport, nearest first. The
 * heights enter the geometry together and the anchor row stays where it was seen.
 * `progress` may be NULL. A host callback's bad width fails the call with
 * TESS_ERROR_CALLBACK and stores nothing.
 */
tess_status tess_engine_measure(tess_engine_t *TESS_NONNULL engine, int32_t budget_kind, int64_t budget,
                                tess_measure_progress *TESS_NULLABLE progress);

/** Measures every dirty row on `threads` (1 ... 256) threads. */
tess_status tess_engine_measure_all(tess_engine_t *TESS_NONNULL engine, int64_t threads,
                                    double *TESS_NULLABLE scroll_offset);

/** The statistics of the caches of the engine's text engine (the calling thread's; the
 *  threads of `tess_engine_measure_all` keep their own). */
tess_status tess_engine_get_statistics(const tess_engine_t *TESS_NONNULL engine,
                                       tess_text_statistics *TESS_NONNULL out);

/* --- Window and frames --- */

/** One cell of a profile-driven window (56 bytes). */
typedef struct tess_visible_item {
    int64_t row;
    uint64_t id;
    /** 0 in a list; the column's x for a grid item. */
    double x;
    /** Top edge from the top of the content (a grid item: its line's top). */
    double y;
    /** The content width, or a grid item's width. */
    double width;
    /** The row's height, or a grid item's own height. */
    double height;
    uint16_t kind;
    /** TESS_ROW_ flags plus TESS_ROW_DIVIDER when the row draws its divider. */
    uint16_t flags;
    uint32_t reserved;
} tess_visible_item;

/**
 * The cells intersecting [scroll offset - overscan, scroll offset + viewport + overscan)
 * (whole lines in a grid), in order, with the engine's overscan, into `items`; the header
 * pinned at the viewport's top into `sticky_header` (may be NULL) with `*has_sticky_header`
 * (may be NULL) 1, or 0 when the group under the top has no sticky header. Allocates
 * nothing. A store-driven engine reports its rows with x 0 and width 0.
 */
tess_status tess_engine_items(const tess_engine_t *TESS_NONNULL engine, tess_visible_item *TESS_NULLABLE items,
                              int64_t capacity, int64_t *TESS_NONNULL count,
                              tess_visible_item *TESS_NULLABLE sticky_header, int32_t *TESS_NULLABLE has_sticky_header);

/** The frames of every present element of stored row `row` laid out in the engine's
 *  environment, as `tess_measurer_frames`; the cell's size into `cell_width`/`cell_height`
 *  (each may be NULL). Profile-driven engines only. */
tess_status tess_engine_row_frames(tess_engine_t *TESS_NONNULL engine, int64_t row,
                                   tess_element_frame *TESS_NULLABLE frames, int64_t capacity,
                                   int64_t *TESS_NONNULL count, double *TESS_NULLABLE cell_width,
                                   double *TESS_NULLABLE cell_height);

/* ===================================================================================== */
/* Snapshots: diff against the engine's rows and apply incrementally                      */
/* ===================================================================================== */

/** The rows the list should show now, as parallel columns in display order. */
typedef struct tess_snapshot {
    /** count unique ids; may be NULL only when count is 0. Borrowed for the call. */
    const uint64_t *TESS_NULLABLE ids;
    /** count kind codes; may be NULL only when count is 0. */
    const uint16_t *TESS_NULLABLE kinds;
    /** count content versions; may be NULL only when count is 0. A surviving row whose
     *  version or kind differs from the stored one is an update. */
    const uint64_t *TESS_NULLABLE versions;
    int64_t count;
    /** The rows' values (rows = count); NULL: none. Only inserted and updated rows' are
     *  read, but the offsets must cover every row. */
    const tess_text_columns *TESS_NULLABLE text;
    /** Measured heights of inserted and updated rows, store-driven engines only; NULL: the
     *  kinds' estimates. */
    const double *TESS_NULLABLE heights;
    /** 1: an inserted row shows the unread indicator, an updated row gains it; 0: an
     *  inserted row does not, an updated row keeps its state. NULL: all 0. */
    const uint8_t *TESS_NULLABLE unread;
} tess_snapshot;

/** A batch: prepared against one state of one engine (`tess_engine_prepare`) or the record
 *  of one applied (`tess_engine_apply`, `tess_engine_apply_prepared`,
 *  `tess_engine_commit_swipe`). Read in the batch form (UIKit performBatchUpdates) and the
 *  sequential form (RecyclerView notifyItem…). One thread at a time. */
typedef struct tess_batch tess_batch_t;

tess_status tess_batch_create(tess_batch_t *TESS_NULLABLE *TESS_NONNULL out);

void tess_batch_destroy(tess_batch_t *TESS_NULLABLE batch);

/** 1 while the batch holds a prepared batch not yet applied, else 0. */
tess_status tess_batch_is_prepared(const tess_batch_t *TESS_NONNULL batch, int32_t *TESS_NONNULL out);

/** Counts of the batch (TESS_ERROR_NO_RESULT while it holds none). */
tess_status tess_batch_get_counts(const tess_batch_t *TESS_NONNULL batch, tess_diff_counts *TESS_NONNULL out);

/** One index list (TESS_DIFF_), as `tess_differ_indexes`. */
tess_status tess_batch_indexes(const tess_batch_t *TESS_NONNULL batch, int32_t which,
                               int64_t *TESS_NULLABLE indexes, int64_t capacity, int64_t *TESS_NONNULL count);

/** The moves, ascending by new index. */
tess_status tess_batch_moves(const tess_batch_t *TESS_NONNULL batch, tess_diff_move *TESS_NULLABLE moves,
                             int64_t capacity, int64_t *TESS_NONNULL count);

/** The sequential form, each index valid when it is applied. */
tess_status tess_batch_operations(const tess_batch_t *TESS_NONNULL batch,
                                  tess_diff_operation *TESS_NULLABLE operations, int64_t capacity,
                                  int64_t *TESS_NONNULL count);

/**
 * Diffs the engine's rows against `snapshot` into `batch` (replacing what it held) without
 * changing the engine, and checks the inserted and updated rows (kinds, heights, text,
 * values against their kinds' rules) and the group rules of the new list, so a bad row is
 * reported before the host animates anything. On error the batch is unchanged.
 */
tess_status tess_engine_prepare(const tess_engine_t *TESS_NONNULL engine, const tess_snapshot *TESS_NONNULL snapshot,
                                tess_batch_t *TESS_NONNULL batch);

/**
 * Applies a batch prepared on this engine in its current state: deleted rows go, moved rows
 * keep their height, measured state, flags and text, inserted rows start at their kind's
 * estimate (dirty in a profile-driven engine), updated rows take their new values and are
 * measured again. All or nothing: `tess_engine_prepare` checked the rows; after an
 * environment change since, their kinds' rules are checked again in the new one.
 * TESS_ERROR_STALE_BATCH when the engine's rows changed since (or it is another engine's
 * batch); TESS_ERROR_NO_RESULT when `batch` holds no prepared batch. On success the batch
 * holds the applied record, the rows whose swipe or selection state it changed are
 * readable with `tess_engine_changed_rows`, and `scroll_offset` (may be NULL) receives the
 * corrected offset (a deleted anchor row's place goes to the nearest row that stayed).
 */
tess_status tess_engine_apply_prepared(tess_engine_t *TESS_NONNULL engine, tess_batch_t *TESS_NONNULL batch,
                                       double *TESS_NULLABLE scroll_offset);

/** `tess_engine_prepare` then `tess_engine_apply_prepared` in one call; `batch` (may be
 *  NULL) receives the applied record. */
tess_status tess_engine_apply(tess_engine_t *TESS_NONNULL engine, const tess_snapshot *TESS_NONNULL snapshot,
                              tess_batch_t *TESS_NULLABLE batch, double *TESS_NULLABLE scroll_offset);

/* ===================================================================================== */
/* Swipe, selection and unread state                                                      */
/* ===================================================================================== */
/*
 * Kept by row id, carried through every change, and mirrored in the TESS_ROW_SELECTED,
 * TESS_ROW_SWIPE_OPEN and TESS_ROW_UNREAD flags. Each call that changes state records the
 * rows whose state changed (ids and current indexes, ascending), to reconfigure; their
 * number goes into `*changed_count` (may be NULL) and `tess_engine_changed_rows` reads
 * them, until the next such call.
 */

#define TESS_SWIPE_LEADING 0
#define TESS_SWIPE_TRAILING 1

typedef struct tess_row_reference {
    uint64_t id;
    int64_t row;
} tess_row_reference;

/** The rows the last state-changing call (swipe, selection, viewed, apply, commit swipe)
 *  changed. */
tess_status tess_engine_changed_rows(const tess_engine_t *TESS_NONNULL engine,
                                     tess_row_reference *TESS_NULLABLE rows, int64_t capacity,
                                     int64_t *TESS_NONNULL count);

/** Opens row `id`'s leading or trailing actions (TESS_SWIPE_), `revealed_width` points wide
 *  (finite, > 0, at most the content width). Another open row closes; the row's unread
 *  indicator clears. Cells only, not in edit mode (TESS_ERROR_NOT_ALLOWED). */
tess_status tess_engine_swipe(tess_engine_t *TESS_NONNULL engine, uint64_t id, int32_t edge, double revealed_width,
                              int64_t *TESS_NULLABLE changed_count);

/** Closes the open row, if any. */
tess_status tess_engine_close_swipe(tess_engine_t *TESS_NONNULL engine, int64_t *TESS_NULLABLE changed_count);

/** The open row: `*is_open` 0 (the rest 0) when none. `id`, `edge`, `revealed_width` may be
 *  NULL. */
tess_status tess_engine_get_swipe(const tess_engine_t *TESS_NONNULL engine, int32_t *TESS_NONNULL is_open,
                                  uint64_t *TESS_NULLABLE id, int32_t *TESS_NULLABLE edge,
                                  double *TESS_NULLABLE revealed_width);

/** A full swipe: deletes row `id` through the batch pipeline (group rules, anchoring,
 *  state); `batch` (may be NULL) receives the applied record. */
tess_status tess_engine_commit_swipe(tess_engine_t *TESS_NONNULL engine, uint64_t id,
                                     tess_batch_t *TESS_NULLABLE batch, double *TESS_NULLABLE scroll_offset);

/** Selects row `id` (profile-driven engines in edit mode, kinds with a selection); in a
 *  single-selection group the other selected row is deselected. */
tess_status tess_engine_select(tess_engine_t *TESS_NONNULL engine, uint64_t id,
                               int64_t *TESS_NULLABLE changed_count);

tess_status tess_engine_deselect(tess_engine_t *TESS_NONNULL engine, uint64_t id,
                                 int64_t *TESS_NULLABLE changed_count);

/** Makes `ids` (`count`, NULL only when 0) the selection, all or nothing
 *  (TESS_ERROR_RULE_VIOLATION for two rows of one single-selection group). */
tess_status tess_engine_set_selection(tess_engine_t *TESS_NONNULL engine, const uint64_t *TESS_NULLABLE ids,
                                      int64_t count, int64_t *TESS_NULLABLE changed_count);

/** Deselects every row. */
tess_status tess_engine_clear_selection(tess_engine_t *TESS_NONNULL engine, int64_t *TESS_NULLABLE changed_count);

/** The selected rows' ids, in row order. */
tess_status tess_engine_selection(const tess_engine_t *TESS_NONNULL engine, uint64_t *TESS_NULLABLE ids,
                                  int64_t capacity, int64_t *TESS_NONNULL count);

/** Clears the unread indicator of rows `start ..< start + count` (seen). */
tess_status tess_engine_mark_viewed(tess_engine_t *TESS_NONNULL engine, int64_t start, int64_t count,
                                    int64_t *TESS_NULLABLE changed_count);

/** `tess_engine_mark_viewed` for the rows in the viewport now (no overscan). */
tess_status tess_engine_mark_visible_viewed(tess_engine_t *TESS_NONNULL engine,
                                            int64_t *TESS_NULLABLE changed_count);

#ifdef __cplusplus
}
#endif

#if defined(__clang__)
#pragma clang diagnostic pop
#endif

#endif /* TESSERA_H */
