/* No public declarations: the target only provides libtessera.so's hidden allocator
 * functions (allocator.c). */
#ifndef TESSERA_ALLOCATOR_H
#define TESSERA_ALLOCATOR_H
#endif
