// The library's Profile is a command-line value too, so --help lists the profiles.
public import ArgumentParser
public import HLSCheck

extension Profile: ExpressibleByArgument {}
