// MediaFormats module.
