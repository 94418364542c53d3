/// One requirement of a specification that a rule enforces: where it is written, how strongly,
/// and what it asks, paraphrased short. `hlscheck rules --verbose` prints a rule's items and
/// docs/rules.md lists them, so a finding can be traced to the sentence it comes from.
package struct SpecItem: Sendable, Hashable, Codable {
    /// How strongly the source asks (RFC 2119 keywords).
    package enum Level: String, Sendable, Hashable, Codable {
        case must = "MUST"
        case should = "SHOULD"
    }

    /// Where the requirement is written: `bis-22 §4.4.3.1` (draft-pantos-hls-rfc8216bis-22),
    /// `RFC 8216 §3.4` (where bis-22 has no counterpart), `AS 9.15` (Apple's HLS Authoring
    /// Specification for Apple Devices), `AS iOS 9.21` / `AS tvOS 9.20` (its amended
    /// requirements for one platform), or another standard (`ISO/IEC 13818-1 §2.4.3.3`).
    package var reference: String
    /// The same requirement's section in RFC 8216 when bis-22 numbers it differently
    /// (`RFC 8216 §4.3.3.1`); nil otherwise.
    package var rfc8216: String?
    /// MUST or SHOULD.
    package var level: Level
    /// What the source asks, faithfully paraphrased in one short sentence.
    package var requirement: String

    /// Makes an item from its parts.
    package init(_ reference: String, rfc8216: String? = nil, _ level: Level, _ requirement: String) {
        self.reference = reference
        self.rfc8216 = rfc8216
        self.level = level
        self.requirement = requirement
    }

    /// An item of draft-pantos-hls-rfc8216bis-22; `rfc` is RFC 8216's section when it differs.
    package static func bis(_ section: String, rfc: String? = nil, _ level: Level, _ requirement: String) -> SpecItem {
        SpecItem("bis-22 §\(section)", rfc8216: rfc.map { "RFC 8216 §\($0)" }, level, requirement)
    }

    /// An item of Apple's HLS Authoring Specification; `platform` names an amended requirement
    /// (`iOS`, `tvOS`).
    package static func apple(_ item: String, platform: String? = nil, _ level: Level, _ requirement: String)
        -> SpecItem
    {
        SpecItem(platform.map { "AS \($0) \(item)" } ?? "AS \(item)", level, requirement)
    }

    /// Whether the item is Apple's authoring specification's.
    package var isApple: Bool { reference.hasPrefix("AS ") }

    /// Whether the item is the HTTP Live Streaming protocol's (bis-22 or RFC 8216).
    package var isProtocol: Bool { reference.hasPrefix("bis-22 ") || reference.hasPrefix("RFC 8216 ") }

    /// `bis-22 §4.4.3.1 (RFC 8216 §4.3.3.1) MUST: …`: one line for `rules --verbose` and docs.
    package var line: String {
        reference + (rfc8216.map { " (\($0))" } ?? "") + " \(level.rawValue): \(requirement)"
    }
}
