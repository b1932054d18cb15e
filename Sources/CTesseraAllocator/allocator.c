/*
 * libtessera.so's allocator: the five jemalloc calls Tessera's core makes (mallocx,
 * rallocx, dallocx, sallocx, mallctl), mapped onto the host process's malloc. Linked into
 * the dynamic product only (Package.swift), hidden, so nothing outside the library sees
 * them. The Swift package and its tests keep using jemalloc itself.
 *
 * Why not jemalloc inside the library: jemalloc keeps its thread state in initial-exec TLS
 * (2,632 bytes), more than glibc leaves for libraries loaded with dlopen, so a JVM cannot
 * System.loadLibrary a library that carries it ("cannot allocate memory in static TLS
 * block"); and libjemalloc.so.2 exports C++ operator new/delete, which interpose on
 * libstdc++'s in a host not built against jemalloc while free stays glibc's. A library
 * loaded into someone else's process should use that process's allocator.
 */
#include <errno.h>
#include <malloc.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define TESS_HIDDEN __attribute__((visibility("hidden")))

/* jemalloc's flag encoding (jemalloc.h): the low 6 bits hold log2 of the alignment,
 * MALLOCX_ZERO is 0x40. */
#define LG_ALIGN_MASK 0x3f
#define ZERO 0x40

static size_t alignment_of(int flags) { return (size_t)1 << (flags & LG_ALIGN_MASK); }

TESS_HIDDEN void *mallocx(size_t size, int flags);
TESS_HIDDEN void *rallocx(void *ptr, size_t size, int flags);
TESS_HIDDEN void dallocx(void *ptr, int flags);
TESS_HIDDEN size_t sallocx(const void *ptr, int flags);
TESS_HIDDEN int mallctl(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen);

void *mallocx(size_t size, int flags) {
    size_t alignment = alignment_of(flags);
    void *p = NULL;
    if (size == 0) size = 1;
    if (alignment <= 16) {
        p = malloc(size);
    } else if (posix_memalign(&p, alignment, size) != 0) {
        p = NULL;
    }
    if (p && (flags & ZERO)) memset(p, 0, size);
    return p;
}

void *rallocx(void *ptr, size_t size, int flags) {
    if (size == 0) size = 1;
    if (alignment_of(flags) <= 16 && !(flags & ZERO)) return realloc(ptr, size);
    size_t old = malloc_usable_size(ptr);
    void *q = mallocx(size, flags & ~ZERO);
    if (!q) return NULL;
    memcpy(q, ptr, old < size ? old : size);
    if ((flags & ZERO) && size > old) memset((char *)q + old, 0, size - old);
    free(ptr);
    return q;
}

void dallocx(void *ptr, int flags) {
    (void)flags;
    free(ptr);
}

size_t sallocx(const void *ptr, int flags) {
    (void)flags;
    return malloc_usable_size((void *)ptr);
}

/* No statistics: MemoryStatistics reads report 0 / -1 through the library. */
int mallctl(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen) {
    (void)name;
    (void)oldp;
    (void)oldlenp;
    (void)newp;
    (void)newlen;
    return ENOENT;
}
