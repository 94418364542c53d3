/// The hlscheck release, reported by `--version` and in every machine-readable report.
public enum HLSCheckVersion {
    public static let current = "0.1.0"
}
