#ifndef CLIBFUZZER_H
#define CLIBFUZZER_H
#include <stddef.h>
#include <stdint.h>

// libFuzzer's driver (compiler-rt, FuzzerInterface.h): runs the fuzzing loop on a callback.
// SwiftPM names an executable's entry point after its module, so the targets call the driver
// from their own `main` instead of using libFuzzer's.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));

#endif
