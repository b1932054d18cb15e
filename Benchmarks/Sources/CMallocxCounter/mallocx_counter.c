#define _GNU_SOURCE
#include "mallocx_counter.h"
#include <dlfcn.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

static _Atomic uint64_t calls;

typedef void *(*mallocx_function)(size_t, int);
typedef void *(*rallocx_function)(void *, size_t, int);
static _Atomic(mallocx_function) real_mallocx;
static _Atomic(rallocx_function) real_rallocx;

static void *next_symbol(const char *name) {
    void *f = dlsym(RTLD_NEXT, name);
    if (!f) {
        fprintf(stderr, "CMallocxCounter: no %s after the benchmark executable (is libjemalloc linked?)\n", name);
        abort();
    }
    return f;
}

uint64_t tess_bench_mallocx_calls(void) { return atomic_load_explicit(&calls, memory_order_relaxed); }

/* The signatures of <jemalloc/jemalloc.h>, which is not included so as not to clash. */
void *mallocx(size_t size, int flags) {
    mallocx_function f = atomic_load_explicit(&real_mallocx, memory_order_relaxed);
    if (!f) {
        f = (mallocx_function)next_symbol("mallocx");
        atomic_store_explicit(&real_mallocx, f, memory_order_relaxed);
    }
    atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed);
    return f(size, flags);
}

void *rallocx(void *ptr, size_t size, int flags) {
    rallocx_function f = atomic_load_explicit(&real_rallocx, memory_order_relaxed);
    if (!f) {
        f = (rallocx_function)next_symbol("rallocx");
        atomic_store_explicit(&real_rallocx, f, memory_order_relaxed);
    }
    atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed);
    return f(ptr, size, flags);
}
