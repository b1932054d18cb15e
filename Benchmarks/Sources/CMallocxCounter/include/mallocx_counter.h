#ifndef TESSERA_BENCH_MALLOCX_COUNTER_H
#define TESSERA_BENCH_MALLOCX_COUNTER_H
#include <stdint.h>

/* Calls of jemalloc's mallocx and rallocx in this process so far.
 *
 * Tessera takes its large buffers (pages, tree nodes, text arena, id index, cache indexes
 * and arenas, scratch, prepared-text columns) from jemalloc's non-standard API, which the
 * malloc interposer of package-benchmark does not see. This target defines mallocx and
 * rallocx in the benchmark executable, so Tessera's calls, linked into the same
 * executable, land here: each is counted (one relaxed atomic add) and passed on to
 * libjemalloc's own (found with dlsym(RTLD_NEXT, ...)). */
uint64_t tess_bench_mallocx_calls(void);

#endif
