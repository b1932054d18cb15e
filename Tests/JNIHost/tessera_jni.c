/*
 * The JNI shim of the Java host: a thin layer over tessera.h. Arrays cross the boundary
 * in bulk (GetPrimitiveArrayCritical, no copy where the VM allows), windows are written
 * straight into a direct ByteBuffer of tess_visible_row structs, and a failing call throws
 * a RuntimeException carrying tess_status_name and tess_last_error.
 */
#include <jni.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessera.h"

#define HANDLE(type, h) ((type *)(intptr_t)(h))

static void throw_status(JNIEnv *env, tess_status s, const void *handle) {
    char message[1024];
    snprintf(message, sizeof message, "%s: %s", tess_status_name(s), tess_last_error(handle));
    jclass c = (*env)->FindClass(env, "java/lang/RuntimeException");
    if (c) (*env)->ThrowNew(env, c, message);
}

/* Pins a primitive array for the call (NULL for a null array). */
typedef struct pinned {
    jarray array;
    void *bytes;
} pinned;

static pinned pin(JNIEnv *env, jarray a) {
    pinned p = {a, NULL};
    if (a) p.bytes = (*env)->GetPrimitiveArrayCritical(env, a, NULL);
    return p;
}

static void unpin(JNIEnv *env, pinned p, jint mode) {
    if (p.array && p.bytes) (*env)->ReleasePrimitiveArrayCritical(env, p.array, p.bytes, mode);
}

static jlong length(JNIEnv *env, jarray a) { return a ? (*env)->GetArrayLength(env, a) : 0; }

JNIEXPORT jint JNICALL Java_TesseraHost_abiVersion(JNIEnv *env, jclass c) {
    (void)env;
    (void)c;
    return (jint)tess_abi_version();
}

/* --- profiles ------------------------------------------------------------------------- */

JNIEXPORT jlong JNICALL Java_TesseraHost_profileLoad(JNIEnv *env, jclass c, jbyteArray path) {
    (void)c;
    tess_profile_t *p = NULL;
    jlong n = length(env, path);
    pinned b = pin(env, path);
    tess_status s = tess_profile_load_path(b.bytes, n, NULL, 0, &p);
    unpin(env, b, JNI_ABORT);
    if (s != TESS_OK) throw_status(env, s, NULL);
    return (jlong)(intptr_t)p;
}

JNIEXPORT void JNICALL Java_TesseraHost_profileDestroy(JNIEnv *env, jclass c, jlong p) {
    (void)env;
    (void)c;
    tess_profile_destroy(HANDLE(tess_profile_t, p));
}

JNIEXPORT jdoubleArray JNICALL Java_TesseraHost_profileEstimatedHeights(JNIEnv *env, jclass c, jlong p,
                                                                        jint platform) {
    (void)c;
    int64_t n = 0;
    tess_status s = tess_profile_estimated_heights(HANDLE(tess_profile_t, p), platform, NULL, 0, &n);
    if (s != TESS_OK && s != TESS_ERROR_BUFFER_TOO_SMALL) {
        throw_status(env, s, HANDLE(tess_profile_t, p));
        return NULL;
    }
    jdoubleArray out = (*env)->NewDoubleArray(env, (jsize)n);
    if (!out) return NULL;
    pinned o = pin(env, out);
    s = tess_profile_estimated_heights(HANDLE(tess_profile_t, p), platform, o.bytes, n, &n);
    unpin(env, o, 0);
    if (s != TESS_OK) throw_status(env, s, HANDLE(tess_profile_t, p));
    return out;
}

/* Kind codes of the profile's cell kinds (role cell), in document order. */
JNIEXPORT jshortArray JNICALL Java_TesseraHost_profileCellKinds(JNIEnv *env, jclass c, jlong p) {
    (void)c;
    tess_profile_t *profile = HANDLE(tess_profile_t, p);
    int64_t count = 0;
    tess_status s = tess_profile_kind_count(profile, &count);
    if (s != TESS_OK) {
        throw_status(env, s, profile);
        return NULL;
    }
    jshort codes[1024];
    jsize n = 0;
    for (int64_t i = 0; i < count && n < 1024; i++) {
        tess_kind_info k;
        s = tess_profile_kind_info(profile, i, &k);
        if (s != TESS_OK) {
            throw_status(env, s, profile);
            return NULL;
        }
        if (k.role == TESS_KIND_ROLE_CELL) codes[n++] = (jshort)k.code;
    }
    jshortArray out = (*env)->NewShortArray(env, n);
    if (out) (*env)->SetShortArrayRegion(env, out, 0, n, codes);
    return out;
}

/* --- engine --------------------------------------------------------------------------- */

JNIEXPORT jlong JNICALL Java_TesseraHost_engineCreate(JNIEnv *env, jclass c, jdoubleArray estimates,
                                                      jdouble viewport) {
    (void)c;
    tess_engine_t *e = NULL;
    jlong n = length(env, estimates);
    pinned h = pin(env, estimates);
    tess_status s = tess_engine_create(h.bytes, n, viewport, &e);
    unpin(env, h, JNI_ABORT);
    if (s != TESS_OK) throw_status(env, s, NULL);
    return (jlong)(intptr_t)e;
}

JNIEXPORT void JNICALL Java_TesseraHost_engineDestroy(JNIEnv *env, jclass c, jlong e) {
    (void)env;
    (void)c;
    tess_engine_destroy(HANDLE(tess_engine_t, e));
}

/* Inserts rows at `index` (-1: append): ids, kinds, optional text (one UTF-8 buffer, byte
 * offsets, slots per row). Returns the corrected scroll offset. */
JNIEXPORT jdouble JNICALL Java_TesseraHost_engineInsert(JNIEnv *env, jclass c, jlong e, jlong index, jlongArray ids,
                                                        jshortArray kinds, jbyteArray utf8, jlongArray offsets,
                                                        jint slotsPerRow) {
    (void)c;
    double y = 0;
    jlong n = length(env, ids);
    if (length(env, kinds) != n) {
        jclass ex = (*env)->FindClass(env, "java/lang/IllegalArgumentException");
        if (ex) (*env)->ThrowNew(env, ex, "ids and kinds differ in length");
        return 0;
    }
    jlong bytes = length(env, utf8);
    pinned pi = pin(env, ids), pk = pin(env, kinds), pu = pin(env, utf8), po = pin(env, offsets);
    tess_text_columns text = {pu.bytes, bytes, po.bytes, slotsPerRow};
    tess_status s = index < 0 ? tess_engine_append(HANDLE(tess_engine_t, e), pi.bytes, pk.bytes, NULL, n,
                                                   offsets ? &text : NULL, &y)
                              : tess_engine_insert(HANDLE(tess_engine_t, e), index, pi.bytes, pk.bytes, NULL, n,
                                                   offsets ? &text : NULL, &y);
    unpin(env, po, JNI_ABORT);
    unpin(env, pu, JNI_ABORT);
    unpin(env, pk, JNI_ABORT);
    unpin(env, pi, JNI_ABORT);
    if (s != TESS_OK) throw_status(env, s, HANDLE(tess_engine_t, e));
    return y;
}

JNIEXPORT jdouble JNICALL Java_TesseraHost_engineRemove(JNIEnv *env, jclass c, jlong e, jlong start, jlong count) {
    (void)c;
    double y = 0;
    tess_status s = tess_engine_remove(HANDLE(tess_engine_t, e), start, count, &y);
    if (s != TESS_OK) throw_status(env, s, HANDLE(tess_engine_t, e));
    return y;
}

JNIEXPORT jdouble JNICALL Java_TesseraHost_engineInvalidate(JNIEnv *env, jclass c, jlong e, jlong row) {
    (void)c;
    double y = 0;
    tess_status s = tess_engine_invalidate_height(HANDLE(tess_engine_t, e), row, &y);
    if (s != TESS_OK) throw_status(env, s, HANDLE(tess_engine_t, e));
    return y;
}

JNIEXPORT void JNICALL Java_TesseraHost_engineUpdateFlags(JNIEnv *env, jclass c, jlong e, jlong row, jint set,
                                                          jint clear) {
    (void)c;
    tess_status s = tess_engine_update_flags(HANDLE(tess_engine_t, e), row, (uint16_t)set, (uint16_t)clear);
    if (s != TESS_OK) throw_status(env, s, HANDLE(tess_engine_t, e));
}

JNIEXPORT jdouble JNICALL Java_TesseraHost_engineScrollTo(JNIEnv *env, jclass c, jlong e, jdouble offset) {
    (void)c;
    double y = 0;
    tess_status s = tess_engine_scroll_to(HANDLE(tess_engine_t, e), offset, &y);
    if (s != TESS_OK) throw_status(env, s, HANDLE(tess_engine_t, e));
    return y;
}

/* [row count, total height bits, scroll offset bits, anchor id, has anchor, anchor offset
 * in row bits] */
JNIEXPORT jlongArray JNICALL Java_TesseraHost_engineState(JNIEnv *env, jclass c, jlong e) {
    (void)c;
    tess_engine_t *engine = HANDLE(tess_engine_t, e);
    int64_t count = 0;
    double total = 0, scroll = 0, inside = 0;
    int32_t has = 0;
    uint64_t id = 0;
    tess_status s = tess_engine_row_count(engine, &count);
    if (s == TESS_OK) s = tess_engine_total_height(engine, &total);
    if (s == TESS_OK) s = tess_engine_get_scroll_offset(engine, &scroll);
    if (s == TESS_OK) s = tess_engine_get_anchor(engine, &has, &id, &inside);
    if (s != TESS_OK) {
        throw_status(env, s, engine);
        return NULL;
    }
    jlong values[6];
    values[0] = count;
    memcpy(&values[1], &total, 8);
    memcpy(&values[2], &scroll, 8);
    values[3] = (jlong)id;
    values[4] = has;
    memcpy(&values[5], &inside, 8);
    jlongArray out = (*env)->NewLongArray(env, 6);
    if (out) (*env)->SetLongArrayRegion(env, out, 0, 6, values);
    return out;
}

/* Every row's id, in order, into `out` (length = row count). */
JNIEXPORT void JNICALL Java_TesseraHost_engineIds(JNIEnv *env, jclass c, jlong e, jlongArray out) {
    (void)c;
    tess_engine_t *engine = HANDLE(tess_engine_t, e);
    jlong n = length(env, out);
    pinned o = pin(env, out);
    jlong *ids = o.bytes;
    tess_status s = TESS_OK;
    for (jlong i = 0; i < n && s == TESS_OK; i++) {
        tess_row_info info;
        s = tess_engine_get_row(engine, i, &info);
        ids[i] = (jlong)info.id;
    }
    unpin(env, o, 0);
    if (s != TESS_OK) throw_status(env, s, engine);
}

/* The window at (offset, viewport) with overscan on both sides, written into `out` (a
 * direct ByteBuffer of tess_visible_row, 40 bytes each). Returns the row count, or minus
 * the count needed when the buffer is too small. */
JNIEXPORT jint JNICALL Java_TesseraHost_engineWindow(JNIEnv *env, jclass c, jlong e, jdouble offset,
                                                     jdouble viewport, jdouble overscan, jobject out) {
    (void)c;
    void *buffer = (*env)->GetDirectBufferAddress(env, out);
    jlong capacity = (*env)->GetDirectBufferCapacity(env, out) / (jlong)sizeof(tess_visible_row);
    int64_t count = 0;
    tess_status s = tess_engine_window_at(HANDLE(tess_engine_t, e), offset, viewport, overscan, overscan, buffer,
                                          capacity, &count);
    if (s == TESS_ERROR_BUFFER_TOO_SMALL) return (jint)-count;
    if (s != TESS_OK) throw_status(env, s, HANDLE(tess_engine_t, e));
    return (jint)count;
}

/* --- diff ----------------------------------------------------------------------------- */

JNIEXPORT jlong JNICALL Java_TesseraHost_differCreate(JNIEnv *env, jclass c) {
    (void)c;
    tess_differ_t *d = NULL;
    tess_status s = tess_differ_create(&d);
    if (s != TESS_OK) throw_status(env, s, NULL);
    return (jlong)(intptr_t)d;
}

JNIEXPORT void JNICALL Java_TesseraHost_differDestroy(JNIEnv *env, jclass c, jlong d) {
    (void)env;
    (void)c;
    tess_differ_destroy(HANDLE(tess_differ_t, d));
}

/* Diffs and returns the sequential operations flattened as (type, a, b) triples. */
JNIEXPORT jlongArray JNICALL Java_TesseraHost_differOperations(JNIEnv *env, jclass c, jlong d, jlongArray oldIds,
                                                               jlongArray oldVersions, jlongArray newIds,
                                                               jlongArray newVersions) {
    (void)c;
    tess_differ_t *differ = HANDLE(tess_differ_t, d);
    jlong old_count = length(env, oldIds), new_count = length(env, newIds);
    if (length(env, oldVersions) != old_count || length(env, newVersions) != new_count) {
        jclass ex = (*env)->FindClass(env, "java/lang/IllegalArgumentException");
        if (ex) (*env)->ThrowNew(env, ex, "ids and versions differ in length");
        return NULL;
    }
    pinned a = pin(env, oldIds), av = pin(env, oldVersions), b = pin(env, newIds), bv = pin(env, newVersions);
    tess_diff_counts counts;
    tess_status s = tess_differ_diff(differ, a.bytes, av.bytes, old_count, b.bytes, bv.bytes, new_count, &counts);
    unpin(env, bv, JNI_ABORT);
    unpin(env, b, JNI_ABORT);
    unpin(env, av, JNI_ABORT);
    unpin(env, a, JNI_ABORT);
    if (s != TESS_OK) {
        throw_status(env, s, differ);
        return NULL;
    }
    jlongArray out = (*env)->NewLongArray(env, (jsize)(counts.operations * 3));
    if (!out) return NULL;
    pinned o = pin(env, out);
    jlong *triples = o.bytes;
    tess_diff_operation *ops = malloc(sizeof(tess_diff_operation) * (size_t)(counts.operations + 1));
    int64_t n = 0;
    s = tess_differ_operations(differ, ops, counts.operations, &n);
    for (int64_t i = 0; s == TESS_OK && i < n; i++) {
        triples[3 * i] = ops[i].type;
        triples[3 * i + 1] = ops[i].a;
        triples[3 * i + 2] = ops[i].b;
    }
    free(ops);
    unpin(env, o, 0);
    if (s != TESS_OK) throw_status(env, s, differ);
    return out;
}

/* --- the profile-driven engine (ABI version 2) ----------------------------------------- */

/* An engine of `profile`'s kinds on `platform` at `width`, measuring with the built-in
 * shaper (the profile's fonts). */
JNIEXPORT jlong JNICALL Java_TesseraHost_profileEngineCreate(JNIEnv *env, jclass c, jlong p, jint platform,
                                                             jdouble width, jdouble viewport, jdouble overscan) {
    (void)c;
    tess_environment e = {width, platform, 0, 1};
    tess_engine_t *engine = NULL;
    tess_status s = tess_engine_create_with_profile(HANDLE(tess_profile_t, p), &e, NULL, viewport, overscan, NULL,
                                                    &engine);
    if (s != TESS_OK) throw_status(env, s, NULL);
    return (jlong)(intptr_t)engine;
}

/* Appends rows with versions and text in one call (every array pinned, none copied here).
 * Returns the corrected scroll offset. */
JNIEXPORT jdouble JNICALL Java_TesseraHost_engineAppendRows(JNIEnv *env, jclass c, jlong e, jlongArray ids,
                                                            jshortArray kinds, jlongArray versions, jbyteArray utf8,
                                                            jlongArray offsets, jint slotsPerRow) {
    (void)c;
    double y = 0;
    jlong n = length(env, ids);
    if (length(env, kinds) != n || length(env, versions) != n) {
        jclass ex = (*env)->FindClass(env, "java/lang/IllegalArgumentException");
        if (ex) (*env)->ThrowNew(env, ex, "ids, kinds and versions differ in length");
        return 0;
    }
    jlong bytes = length(env, utf8);
    pinned pi = pin(env, ids), pk = pin(env, kinds), pv = pin(env, versions), pu = pin(env, utf8),
           po = pin(env, offsets);
    tess_text_columns text = {pu.bytes, bytes, po.bytes, slotsPerRow};
    tess_status s = tess_engine_append_rows(HANDLE(tess_engine_t, e), pi.bytes, pk.bytes, pv.bytes, n,
                                            offsets ? &text : NULL, &y);
    unpin(env, po, JNI_ABORT);
    unpin(env, pu, JNI_ABORT);
    unpin(env, pv, JNI_ABORT);
    unpin(env, pk, JNI_ABORT);
    unpin(env, pi, JNI_ABORT);
    if (s != TESS_OK) throw_status(env, s, HANDLE(tess_engine_t, e));
    return y;
}

/* measure(budget): {measured, remaining}. */
JNIEXPORT jlongArray JNICALL Java_TesseraHost_engineMeasure(JNIEnv *env, jclass c, jlong e, jint kind, jlong budget) {
    (void)c;
    tess_measure_progress p;
    tess_status s = tess_engine_measure(HANDLE(tess_engine_t, e), kind, budget, &p);
    if (s != TESS_OK) {
        throw_status(env, s, HANDLE(tess_engine_t, e));
        return NULL;
    }
    jlong values[2] = {p.measured, p.remaining};
    jlongArray out = (*env)->NewLongArray(env, 2);
    if (out) (*env)->SetLongArrayRegion(env, out, 0, 2, values);
    return out;
}

JNIEXPORT jdouble JNICALL Java_TesseraHost_engineMeasureAll(JNIEnv *env, jclass c, jlong e, jint threads) {
    (void)c;
    double y = 0;
    tess_status s = tess_engine_measure_all(HANDLE(tess_engine_t, e), threads, &y);
    if (s != TESS_OK) throw_status(env, s, HANDLE(tess_engine_t, e));
    return y;
}

/* The item window at the engine's scroll offset into `out` (a direct ByteBuffer of
 * tess_visible_item, 56 bytes each), the sticky header into `sticky` (one item). Returns the
 * count (minus the count needed when too small); the sticky item's row is -1 when none. */
JNIEXPORT jint JNICALL Java_TesseraHost_engineItems(JNIEnv *env, jclass c, jlong e, jobject out, jobject sticky) {
    (void)c;
    void *buffer = (*env)->GetDirectBufferAddress(env, out);
    jlong capacity = (*env)->GetDirectBufferCapacity(env, out) / (jlong)sizeof(tess_visible_item);
    tess_visible_item *header = (*env)->GetDirectBufferAddress(env, sticky);
    int64_t count = 0;
    int32_t has = 0;
    tess_status s = tess_engine_items(HANDLE(tess_engine_t, e), buffer, capacity, &count, header, &has);
    if (s == TESS_ERROR_BUFFER_TOO_SMALL) return (jint)-count;
    if (s != TESS_OK) throw_status(env, s, HANDLE(tess_engine_t, e));
    if (!has) header->row = -1;
    return (jint)count;
}

/* Applies a snapshot (ids, kinds, versions, text of every row) to the engine: {deletes,
 * inserts, moves, updates, operations, scroll offset bits}. */
JNIEXPORT jlongArray JNICALL Java_TesseraHost_engineApply(JNIEnv *env, jclass c, jlong e, jlong b, jlongArray ids,
                                                          jshortArray kinds, jlongArray versions, jbyteArray utf8,
                                                          jlongArray offsets, jint slotsPerRow) {
    (void)c;
    double y = 0;
    jlong n = length(env, ids);
    jlong bytes = length(env, utf8);
    if (length(env, kinds) != n || length(env, versions) != n) {
        jclass ex = (*env)->FindClass(env, "java/lang/IllegalArgumentException");
        if (ex) (*env)->ThrowNew(env, ex, "ids, kinds and versions differ in length");
        return NULL;
    }
    pinned pi = pin(env, ids), pk = pin(env, kinds), pv = pin(env, versions), pu = pin(env, utf8),
           po = pin(env, offsets);
    tess_text_columns text = {pu.bytes, bytes, po.bytes, slotsPerRow};
    tess_snapshot snapshot = {pi.bytes, pk.bytes, pv.bytes, n, offsets ? &text : NULL, NULL, NULL};
    tess_status s = tess_engine_apply(HANDLE(tess_engine_t, e), &snapshot, HANDLE(tess_batch_t, b), &y);
    unpin(env, po, JNI_ABORT);
    unpin(env, pu, JNI_ABORT);
    unpin(env, pv, JNI_ABORT);
    unpin(env, pk, JNI_ABORT);
    unpin(env, pi, JNI_ABORT);
    tess_diff_counts counts;
    if (s == TESS_OK) s = tess_batch_get_counts(HANDLE(tess_batch_t, b), &counts);
    if (s != TESS_OK) {
        throw_status(env, s, HANDLE(tess_engine_t, e));
        return NULL;
    }
    jlong values[6] = {counts.deletes, counts.inserts, counts.moves, counts.updates, counts.operations, 0};
    memcpy(&values[5], &y, 8);
    jlongArray out = (*env)->NewLongArray(env, 6);
    if (out) (*env)->SetLongArrayRegion(env, out, 0, 6, values);
    return out;
}

JNIEXPORT jlong JNICALL Java_TesseraHost_batchCreate(JNIEnv *env, jclass c) {
    (void)c;
    tess_batch_t *b = NULL;
    tess_status s = tess_batch_create(&b);
    if (s != TESS_OK) throw_status(env, s, NULL);
    return (jlong)(intptr_t)b;
}

JNIEXPORT void JNICALL Java_TesseraHost_batchDestroy(JNIEnv *env, jclass c, jlong b) {
    (void)env;
    (void)c;
    tess_batch_destroy(HANDLE(tess_batch_t, b));
}

/* Swipes row `id` open (trailing); returns the number of rows whose state changed. */
JNIEXPORT jlong JNICALL Java_TesseraHost_engineSwipe(JNIEnv *env, jclass c, jlong e, jlong id, jdouble width) {
    (void)c;
    int64_t changed = 0;
    tess_status s = tess_engine_swipe(HANDLE(tess_engine_t, e), (uint64_t)id, TESS_SWIPE_TRAILING, width, &changed);
    if (s != TESS_OK) throw_status(env, s, HANDLE(tess_engine_t, e));
    return changed;
}

/* A full swipe deletes row `id` through the batch pipeline; returns the corrected offset. */
JNIEXPORT jdouble JNICALL Java_TesseraHost_engineCommitSwipe(JNIEnv *env, jclass c, jlong e, jlong id, jlong b) {
    (void)c;
    double y = 0;
    tess_status s = tess_engine_commit_swipe(HANDLE(tess_engine_t, e), (uint64_t)id, HANDLE(tess_batch_t, b), &y);
    if (s != TESS_OK) throw_status(env, s, HANDLE(tess_engine_t, e));
    return y;
}

JNIEXPORT jlong JNICALL Java_TesseraHost_engineDirtyCount(JNIEnv *env, jclass c, jlong e) {
    (void)c;
    int64_t n = 0;
    tess_status s = tess_engine_dirty_count(HANDLE(tess_engine_t, e), &n);
    if (s != TESS_OK) throw_status(env, s, HANDLE(tess_engine_t, e));
    return n;
}
