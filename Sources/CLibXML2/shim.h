#ifndef HLSCHECK_CLIBXML2_SHIM_H
#define HLSCHECK_CLIBXML2_SHIM_H
// libxml2 entry points Swift 6 cannot use directly (design.md §7): xmlFree is a global
// function-pointer variable, which strict concurrency rejects.
#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU, so <libxml/encoding.h> would pull in the system's
// <unicode/ucnv.h>; Foundation on Linux carries its own, newer ICU (_FoundationICU), and clang
// rejects the two different `enum UErrorCode`s in any Swift module that imports both
// Foundation and CLibXML2 ("not present in definition of 'enum UErrorCode'", on clean builds).
// Nothing here touches the ICU converter fields of xmlCharEncodingHandler, so leave them out.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <libxml/xmlwriter.h>
#include <libxml/xmlschemas.h>
#include <libxml/xmlmemory.h>

// Defined in Sources/CLazyLibraries (libxml2 is loaded on first use; xmlFree is read there).
void hls_xml_free(void *pointer);

#endif
