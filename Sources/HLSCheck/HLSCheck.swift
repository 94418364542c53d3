// HLSCheck module.
