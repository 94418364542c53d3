/// The values one setting may take, shared by its command-line flag and its `.hlscheck.yml`
/// key: one range, one default and one message for both, so that a value the flag refuses is
/// refused in the file too, with the same words (docs/configuration.md, "Values").
package struct SettingBound<Value: Comparable & Sendable>: Sendable {
    /// The key in `.hlscheck.yml`; the flag is `--` and the key.
    package let key: String
    package let range: ClosedRange<Value>
    /// What the built-in defaults give when neither the profile, the file nor a flag says.
    package let defaultValue: Value
    /// The unit a message writes after the range ("kbit/s", "seconds"), or what the value is.
    package let unit: String

    /// The flag's name: `--budget-kbps`.
    package var flag: String { "--" + key }

    /// What is wrong with `value` given as `name` (the flag or the key), nil when it is in range.
    package func problem(_ value: Value, as name: String) -> String? {
        range.contains(value) ? nil : outOfRange(name, got: "\(value)")
    }

    /// The message for a value outside the range, or not a number at all, shown as `got`.
    package func outOfRange(_ name: String, got: String) -> String {
        "\(name) must be between \(range.lowerBound) and \(range.upperBound) \(unit), got \(got)"
    }
}

/// The settings a flag and a configuration key share (docs/configuration.md).
package enum SettingBounds {
    /// `budget-kbps`: the audio-only budget, poster included. Up to 1 Gbit/s: any budget a
    /// stream needs, and its bit/s (`audioOnlyBudget(kbps:)`) fit every sum the rules make.
    package static let budgetKbps = SettingBound(
        key: "budget-kbps", range: 1...1_000_000, defaultValue: 64, unit: "(kbit/s)")
    /// `bandwidth-tolerance`: a fraction, 0.1 = 10 %.
    package static let bandwidthTolerance = SettingBound(
        key: "bandwidth-tolerance", range: 0.0...10.0, defaultValue: 0.1, unit: "(a fraction: 0.1 is 10 %)")
    /// `duration-tolerance`: seconds EXTINF may differ from the measured duration; at most the
    /// longest duration a playlist may give (ValueLimits.maximumDuration).
    package static let durationTolerance = SettingBound(
        key: "duration-tolerance", range: 0.0...1_000_000.0, defaultValue: 0.5, unit: "(seconds)")

    /// The budget in bit/s, as the configuration holds it: the one place kbit/s become bit/s.
    package static func audioOnlyBudget(kbps: Int) -> Int { kbps * 1000 }
}
