/// The hlscheck release, reported by `--version` and in every machine-readable report.
package enum HLSCheckVersion {
    /// The version string, e.g. `0.1.0`.
    package static let current = "0.1.0"
}
