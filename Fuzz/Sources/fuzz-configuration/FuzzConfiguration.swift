import FuzzSupport
@testable import HLSCheck

/// `.hlscheck.yml` as the checker reads it (docs/configuration.md): any bytes either configure
/// a run whose values are all within their flags' ranges, or are refused with a message that
/// names the file, line and column — never a trap, whatever the values, anchors, aliases or
/// nesting.
// Also exported under libFuzzer's own name, for builds that link libFuzzer's main (debug).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfiguration(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    do {
        let file = try ConfigurationFile.parse(bytes, path: "fuzz/.hlscheck.yml")
        var configuration = CheckConfiguration()
        file.apply(to: &configuration)
        let budget = SettingBounds.budgetKbps.range
        expectInvariant(
            configuration.audioOnlyBudget >= SettingBounds.audioOnlyBudget(kbps: budget.lowerBound)
                && configuration.audioOnlyBudget <= SettingBounds.audioOnlyBudget(kbps: budget.upperBound),
            "budget \(configuration.audioOnlyBudget) bit/s outside --budget-kbps's range")
        expectInvariant(
            SettingBounds.bandwidthTolerance.range.contains(configuration.bandwidthTolerance),
            "bandwidth tolerance \(configuration.bandwidthTolerance) outside its range")
        expectInvariant(
            SettingBounds.durationTolerance.range.contains(configuration.durationTolerance),
            "duration tolerance \(configuration.durationTolerance) outside its range")
        expectInvariant(file.ignore.count <= 1_000, "\(file.ignore.count) ignore patterns kept")
    } catch {
        expectInvariant(
            error.description.hasPrefix("fuzz/.hlscheck.yml:"), "a refusal that names no file: \(error.description)")
    }
    return 0
}

@main
enum ConfigurationFuzzer {
    static func main() {
        runFuzzer { data, size in fuzzConfiguration(data, size) }
    }
}
