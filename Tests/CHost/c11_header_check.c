/* tessera.h alone compiles as strict C11 (the Makefile adds -Werror -pedantic and, with
 * clang, -Wnullability-completeness: every pointer in the header states its nullability). */
#include "tessera.h"

_Static_assert(sizeof(tess_visible_row) == 40, "tess_visible_row is 40 bytes");
_Static_assert(sizeof(tess_status) == 4, "tess_status is 32 bits");
_Static_assert(sizeof(tess_element_frame) == 72, "tess_element_frame is 72 bytes");
