/* src/lib/calc_api.h — the calculator's flag row type for cli/args.h, which
 * reads ul_calc_flag from here.  The calculator itself is the layer
 * src/calc (calc/calc.h); the library (ulaudit.c) calls it directly. */
#ifndef UL_LIB_CALC_API_H
#define UL_LIB_CALC_API_H

#include "calc/calc.h"

#endif
