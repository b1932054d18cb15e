/* What the Swift implementation (Sources/TesseraC) imports: tessera.h with every required
 * pointer seen as nullable, since the implementation checks each one for NULL and reports
 * TESS_ERROR_NULL_ARGUMENT instead of assuming it. Hosts include tessera.h. */
#ifndef TESSERA_IMPLEMENTATION_H
#define TESSERA_IMPLEMENTATION_H
#define TESS_IMPLEMENTATION 1
#include "tessera.h"
#endif
