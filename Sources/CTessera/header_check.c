/* The C target's one source file: it includes tessera.h as hosts see it, so every build
 * checks that the header compiles as C. It defines nothing. */
#include "tessera.h"

typedef tess_status tess_header_check_status;
