#ifndef TESSERA_CJEMALLOC_SHIM_H
#define TESSERA_CJEMALLOC_SHIM_H
#include <jemalloc/jemalloc.h>

/* Swift cannot import function-like macros; these give it the flag values. */
static inline int tess_mallocx_align(size_t alignment) { return MALLOCX_ALIGN(alignment); }
static inline int tess_mallocx_align_zeroed(size_t alignment) { return MALLOCX_ALIGN(alignment) | MALLOCX_ZERO; }

/* Software prefetch, for hash probes whose addresses are known a few rows ahead. */
static inline void tess_prefetch(const void *address) { __builtin_prefetch(address); }

#endif
