#ifndef TESSERA_CJEMALLOC_SHIM_H
#define TESSERA_CJEMALLOC_SHIM_H
#include <stdint.h>
#include <jemalloc/jemalloc.h>

/* Swift cannot import function-like macros; these give it the flag values. */
static inline int tess_mallocx_align(size_t alignment) { return MALLOCX_ALIGN(alignment); }
static inline int tess_mallocx_align_zeroed(size_t alignment) { return MALLOCX_ALIGN(alignment) | MALLOCX_ZERO; }

/* Software prefetch, for hash probes whose addresses are known a few rows ahead. */
static inline void tess_prefetch(const void *address) { __builtin_prefetch(address); }

/* Relaxed atomic words, for memo tables shared by threads that may race to fill them. */
static inline uint64_t tess_load_relaxed(const uint64_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
static inline void tess_store_relaxed(uint64_t *p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }

#endif
