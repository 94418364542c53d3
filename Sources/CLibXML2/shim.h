#ifndef HLSCHECK_CLIBXML2_SHIM_H
#define HLSCHECK_CLIBXML2_SHIM_H
// libxml2 entry points Swift 6 cannot use directly (design.md §7): xmlFree is a global
// function-pointer variable, which strict concurrency rejects.
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlwriter.h>
#include <libxml/xmlschemas.h>
#include <libxml/xmlmemory.h>

static inline void hls_xml_free(void *pointer) { xmlFree(pointer); }

#endif
