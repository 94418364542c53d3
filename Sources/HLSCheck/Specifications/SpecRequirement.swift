/// One normative sentence (MUST or SHOULD) of the specifications hlscheck checks against, as
/// data, independent of the rules: the catalogue docs/coverage.md is generated from. Each entry
/// paraphrases its source in our own words; sections that hold several requirements give each
/// its own entry, in the order of the text.
package struct SpecRequirement: Sendable, Hashable {
    /// Which document the sentence is in.
    package enum Source: String, Sendable, Hashable, CaseIterable {
        /// draft-pantos-hls-rfc8216bis-22 (1 May 2026), §4–6.
        case bis
        /// Apple's HLS Authoring Specification for Apple Devices, items 1–2, 6–10 and 14.
        case apple
    }

    /// How strongly the source asks: MUST, MUST NOT, REQUIRED, SHALL (NOT) are `must`;
    /// SHOULD (NOT) and RECOMMENDED are `should`.
    package enum Level: String, Sendable, Hashable, CaseIterable {
        case must = "MUST"
        case should = "SHOULD"
    }

    /// Whether a tool that reads playlists, segments and HTTP responses could check it.
    package enum Checkability: Sendable, Hashable {
        /// Checkable. `gap`: for a requirement rules cover, what they leave out (the coverage is
        /// then partial); for one no rule covers, why not (nil: not implemented yet).
        case checkable(gap: String?)
        /// Not machine-checkable (client behaviour, the author's intent, the source material),
        /// with a few words why. Listed, never counted.
        case notCheckable(String)
    }

    package var source: Source
    /// `4.4.6.2` (bis-22) or `9.15`, `1.3b` (Apple).
    package var section: String
    /// RFC 8216's number for the same text where it differs; `nil` when it is the same or the
    /// section is new in bis (see `isNewInBis`).
    package var rfc8216: String?
    /// `iOS` or `tvOS` for Apple's amended requirements of one platform; nil for general items.
    package var platform: String?
    package var level: Level
    /// Words (case-sensitive) that any faithful paraphrase of this sentence contains and no other
    /// requirement of the same section and level needs: how a rule's spec item is told apart
    /// from its neighbours when a section holds several requirements of one level. Empty when
    /// the requirement is alone at its section and level.
    package var keys: [String]
    /// What the source asks, in one short sentence of our own.
    package var text: String
    package var checkability: Checkability

    /// The reference a rule's spec item writes for it: `bis-22 §4.4.3.1`, `AS 9.15`,
    /// `AS iOS 9.21`.
    package var reference: String {
        switch source {
        case .bis: "bis-22 §\(section)"
        case .apple: platform.map { "AS \($0) \(section)" } ?? "AS \(section)"
        }
    }

    package var isCheckable: Bool {
        if case .checkable = checkability { return true }
        return false
    }

    /// Sections of bis-22 that RFC 8216 does not have (variable substitution, low-latency,
    /// content steering, delivery directives).
    package var isNewInBis: Bool {
        source == .bis && SpecRequirement.isNewInBis(section)
    }

    /// Sections new in bis-22, with their subsections; §4.4.5 (media metadata tags) is new as a
    /// section, but its §4.4.5.1 is RFC 8216's §4.3.2.7.
    static let newInBis = [
        "4.3", "4.4.2.3", "4.4.3.7", "4.4.3.8", "4.4.4.7", "4.4.4.8", "4.4.4.9",
        "4.4.5.2", "4.4.5.3", "4.4.5.4", "4.4.6.6", "6.2.5", "6.2.6",
    ]

    static func isNewInBis(_ section: String) -> Bool {
        section == "4.4.5" || newInBis.contains { section == $0 || section.hasPrefix($0 + ".") }
    }

    /// bis-22 renumbered RFC 8216's §4.3 (tags): the tag groups moved under §4.4 in another
    /// order, and date ranges left the segment tags. Longest prefix first.
    static let rfc8216Renumbering: [(bis: String, rfc: String)] = [
        ("4.4.5.1.1", "4.3.2.7.1"), ("4.4.5.1", "4.3.2.7"),
        ("4.4.1", "4.3.1"), ("4.4.2", "4.3.5"), ("4.4.3", "4.3.3"), ("4.4.4", "4.3.2"), ("4.4.6", "4.3.4"),
    ]

    static func rfc8216Section(forBis section: String) -> String? {
        if isNewInBis(section) { return nil }
        for (bis, rfc) in rfc8216Renumbering where section == bis || section.hasPrefix(bis + ".") {
            return rfc + section.dropFirst(bis.count)
        }
        return nil
    }

    /// A requirement of draft-pantos-hls-rfc8216bis-22.
    static func bis(_ section: String, _ level: Level, _ keys: [String], _ text: String, gap: String? = nil)
        -> SpecRequirement
    {
        SpecRequirement(
            source: .bis, section: section, rfc8216: rfc8216Section(forBis: section), platform: nil, level: level,
            keys: keys, text: text, checkability: .checkable(gap: gap))
    }

    /// A sentence of draft-pantos-hls-rfc8216bis-22 no tool can check.
    static func bis(_ section: String, _ level: Level, _ keys: [String], _ text: String, notCheckable reason: String)
        -> SpecRequirement
    {
        SpecRequirement(
            source: .bis, section: section, rfc8216: rfc8216Section(forBis: section), platform: nil, level: level,
            keys: keys, text: text, checkability: .notCheckable(reason))
    }

    /// A requirement alone at its section and level, which needs no keys.
    static func bis(_ section: String, _ level: Level, _ text: String, gap: String? = nil) -> SpecRequirement {
        bis(section, level, [], text, gap: gap)
    }

    static func bis(_ section: String, _ level: Level, _ text: String, notCheckable reason: String) -> SpecRequirement {
        bis(section, level, [], text, notCheckable: reason)
    }

    static func apple(_ item: String, platform: String? = nil, _ level: Level, _ text: String, gap: String? = nil)
        -> SpecRequirement
    {
        apple(item, platform: platform, level, [], text, gap: gap)
    }

    static func apple(
        _ item: String, platform: String? = nil, _ level: Level, _ text: String, notCheckable reason: String
    ) -> SpecRequirement {
        apple(item, platform: platform, level, [], text, notCheckable: reason)
    }

    /// An item of Apple's HLS Authoring Specification; `platform` for an amended requirement.
    static func apple(
        _ item: String, platform: String? = nil, _ level: Level, _ keys: [String], _ text: String,
        gap: String? = nil
    ) -> SpecRequirement {
        SpecRequirement(
            source: .apple, section: item, rfc8216: nil, platform: platform, level: level, keys: keys, text: text,
            checkability: .checkable(gap: gap))
    }

    /// An item of Apple's HLS Authoring Specification no tool can check.
    static func apple(
        _ item: String, platform: String? = nil, _ level: Level, _ keys: [String], _ text: String,
        notCheckable reason: String
    ) -> SpecRequirement {
        SpecRequirement(
            source: .apple, section: item, rfc8216: nil, platform: platform, level: level, keys: keys, text: text,
            checkability: .notCheckable(reason))
    }
}

/// The catalogue: every MUST and SHOULD of the sections in scope, protocol first.
package enum SpecRequirements {
    /// Which texts were read, for docs/coverage.md.
    package static let protocolRevision = "draft-pantos-hls-rfc8216bis-22 (1 May 2026)"
    package static let appleRevision = "HLS Authoring Specification for Apple Devices, revision of 2025-06-26"

    package static let all: [SpecRequirement] = protocolRequirements + appleRequirements

    // Reasons repeated across entries.
    static let needsHeaders = "needs the HTTP response headers"
    static let needsDirectives = "needs requests with delivery directives (_HLS_skip, _HLS_msn, _HLS_part)"
    static let needsReloads = "needs comparing reloads of a live playlist"
    static let needsVUI = "needs the colour description (VUI) of the video bitstream"
    static let needsTiming = "needs measuring transfer timing"
    static let intent = "depends on the author's intent, which a playlist does not state"
    static let sourceMaterial = "depends on the source material, which hlscheck does not see"
}
