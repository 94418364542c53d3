#ifndef HLSCHECK_CLIBYAML_SHIM_H
#define HLSCHECK_CLIBYAML_SHIM_H
#include <yaml.h>
#endif
