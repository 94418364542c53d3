/// Which rules enforce which requirement of the catalogue (`SpecRequirements`): the join behind
/// docs/coverage.md. A rule names the requirements it enforces by their reference and level
/// (`bis-22 §4.4.6.2` MUST, `AS iOS 9.21` MUST); where a section holds several requirements of
/// one level, those whose `keys` occur in the rule's sentence are the ones meant.
package enum SpecCoverage {
    /// One requirement a rule says it enforces: the rule's id, the requirement's reference
    /// (`bis-22 §4.4.3.1`, `AS 9.15`, `AS tvOS 9.20`), its level (`MUST`, `SHOULD`) and the
    /// rule's paraphrase of it.
    package typealias RuleItem = (ruleID: String, reference: String, level: String, requirement: String)

    /// How well the rules cover a requirement.
    package enum Status: Sendable, Hashable {
        /// Rules enforce all of it.
        case covered([String])
        /// Rules enforce part of it; the text says what they leave out.
        case partial([String], String)
        /// No rule enforces it; the text says why.
        case notChecked(String)
        /// No tool could; the text says why.
        case notCheckable(String)

        package var ruleIDs: [String] {
            switch self {
            case .covered(let ids), .partial(let ids, _): ids
            case .notChecked, .notCheckable: []
            }
        }
    }

    /// The requirements with their coverage, and the rule items that named no requirement of
    /// the catalogue although their reference is in its scope (a wrong section or level, or a
    /// sentence that does not tell two requirements of one section apart).
    package struct Result: Sendable {
        package var requirements: [(requirement: SpecRequirement, status: Status)]
        package var unmatched: [(ruleID: String, reference: String, level: String, requirement: String)]
    }

    /// What the coverage document is made from: every rule's own spec items, and the interim
    /// table below for what rules enforce but do not list yet (prune it as they do).
    package static var ruleItems: [RuleItem] {
        RuleCatalogue.descriptions.flatMap { rule in
            rule.specItems.map {
                (ruleID: rule.id, reference: $0.reference, level: $0.level.rawValue, requirement: $0.requirement)
            }
        } + interimRuleItems
    }

    /// The coverage of `requirements` by `items`.
    package static func compute(_ items: [RuleItem], requirements: [SpecRequirement] = SpecRequirements.all) -> Result {
        var rulesByRequirement: [Int: [String]] = [:]
        var unmatched: [RuleItem] = []
        for item in items {
            guard let target = parse(item.reference) else { continue }  // another standard: not catalogued
            guard inScope(target) else { continue }
            let candidates = requirements.indices.filter {
                let r = requirements[$0]
                return r.source == target.source && r.section == target.section && r.platform == target.platform
                    && r.level.rawValue == item.level
            }
            let named = matches(candidates, in: requirements, for: item.requirement)
            if named.isEmpty { unmatched.append(item) }
            for index in named where !(rulesByRequirement[index] ?? []).contains(item.ruleID) {
                rulesByRequirement[index, default: []].append(item.ruleID)
            }
        }
        let entries = requirements.enumerated().map {
            index, requirement -> (requirement: SpecRequirement, status: Status) in
            let rules = rulesByRequirement[index] ?? []
            switch requirement.checkability {
            case .notCheckable(let reason):
                return (requirement, .notCheckable(reason))
            case .checkable(let gap):
                if rules.isEmpty { return (requirement, .notChecked(gap ?? "not implemented yet")) }
                if let gap { return (requirement, .partial(rules, gap)) }
                return (requirement, .covered(rules))
            }
        }
        return Result(requirements: entries, unmatched: unmatched)
    }

    /// The requirements among `candidates` (one section, platform and level) that `sentence`
    /// names: the only candidate; otherwise each candidate whose keys all occur in the sentence,
    /// where an occurrence inside a longer key of another candidate does not count (HOLD-BACK in
    /// PART-HOLD-BACK), and a candidate whose keys are a strict subset of another named one's
    /// gives way to it. A sentence that bundles several requirements names each of them.
    package static func matches(_ candidates: [Int], in requirements: [SpecRequirement], for sentence: String) -> [Int]
    {
        if candidates.count == 1 { return candidates }
        let allKeys = Set(candidates.flatMap { requirements[$0].keys })
        func occursFreely(_ key: String) -> Bool {
            var masked = sentence
            for longer in allKeys.filter({ $0.count > key.count && $0.contains(key) }).sorted(by: {
                $0.count > $1.count
            }) {
                masked = masked.replacing(longer, with: "\u{1}")
            }
            return masked.contains(key)
        }
        let hits = candidates.filter { index in
            let keys = requirements[index].keys
            return !keys.isEmpty && keys.allSatisfy(occursFreely)
        }
        return hits.filter { index in
            let keys = Set(requirements[index].keys)
            return !hits.contains { other in other != index && keys.isStrictSubset(of: Set(requirements[other].keys)) }
        }
    }

    /// `bis-22 §4.4.3.1` → (bis, 4.4.3.1, nil); `AS 9.15` → (apple, 9.15, nil);
    /// `AS iOS 9.21` → (apple, 9.21, iOS); anything else nil.
    static func parse(_ reference: String) -> (source: SpecRequirement.Source, section: String, platform: String?)? {
        let words = reference.split(separator: " ").map(String.init)
        if words.count == 2, words[0] == "bis-22", words[1].hasPrefix("§") {
            return (.bis, String(words[1].dropFirst()), nil)
        }
        if words.count == 2, words[0] == "AS" { return (.apple, words[1], nil) }
        if words.count == 3, words[0] == "AS" { return (.apple, words[2], words[1]) }
        return nil
    }

    /// The catalogue covers bis-22 §4–6 and Apple's items 1–2, 6–10 and 14: a reference
    /// elsewhere (bis-22 §3, AS 11) is outside it, not a mistake.
    static func inScope(_ target: (source: SpecRequirement.Source, section: String, platform: String?)) -> Bool {
        let chapter = target.section.prefix { $0 != "." }
        switch target.source {
        case .bis: return ["4", "5", "6"].contains(chapter)
        case .apple: return ["1", "2", "6", "7", "8", "9", "10", "14"].contains(chapter)
        }
    }

    // MARK: - Interim table

    /// Interim: what the rules on main enforce, read from their code and docs/rules.md, until
    /// each rule lists its spec items. The last field carries the keys of the requirement meant
    /// where its section holds several of one level.
    static let interimRuleItems: [RuleItem] = [
        ("playlist-content-type", "bis-22 §4", "MUST", ""),
        ("playlist-syntax", "bis-22 §4.1", "MUST", "UTF-8"),
        ("playlist-lenient", "bis-22 §4.1", "MUST", "BOM"),
        ("playlist-lenient", "bis-22 §4.1", "MUST", "whitespace"),
        ("playlist-syntax", "bis-22 §4.1", "SHOULD", ""),
        ("playlist-lenient", "bis-22 §4.2", "MUST", "whitespace"),
        ("playlist-syntax", "bis-22 §4.2", "MUST", "quoted-string quote"),
        ("playlist-syntax", "bis-22 §4.2", "MUST", "once"),
        ("playlist-syntax", "bis-22 §4.4.1.1", "MUST", ""),
        ("version-too-low", "bis-22 §4.4.1.2", "MUST", "compatible"),
        ("playlist-syntax", "bis-22 §4.4.1.2", "MUST", "more than one"),
        ("playlist-syntax", "bis-22 §4.4.2", "MUST", ""),
        ("playlist-syntax", "bis-22 §4.4.2.1", "MUST", "once"),
        ("playlist-syntax", "bis-22 §4.4.2.2", "MUST", "once"),
        ("playlist-syntax", "bis-22 §4.4.2.2", "MUST", "TIME-OFFSET"),
        ("playlist-syntax", "bis-22 §4.4.2.3", "MUST", "characters"),
        ("playlist-syntax", "bis-22 §4.4.2.3", "MUST", "VALUE"),
        ("playlist-syntax", "bis-22 §4.4.2.3", "MUST", "IMPORT multivariant"),
        ("playlist-syntax", "bis-22 §4.4.2.3", "MUST", "IMPORT"),
        ("playlist-syntax", "bis-22 §4.4.2.3", "MUST", "QUERYPARAM"),
        ("playlist-syntax", "bis-22 §4.4.2.3", "MUST", "one of"),
        ("playlist-syntax", "bis-22 §4.4.2.3", "MUST", "same"),
        ("playlist-syntax", "bis-22 §4.4.3", "MUST", "more than one"),
        ("playlist-syntax", "bis-22 §4.4.3", "MUST", "multivariant"),
        ("target-duration-exceeded", "bis-22 §4.4.3.1", "MUST", "rounded"),
        ("playlist-syntax", "bis-22 §4.4.3.1", "MUST", "EXT-X-TARGETDURATION"),
        ("playlist-syntax", "bis-22 §4.4.3.2", "MUST", ""),
        ("playlist-syntax", "bis-22 §4.4.3.3", "MUST", "first"),
        ("playlist-syntax", "bis-22 §4.4.3.3", "MUST", "EXT-X-DISCONTINUITY tag"),
        ("playlist-syntax", "bis-22 §4.4.3.7", "MUST", "EXT-X-PART"),
        ("playlist-syntax", "bis-22 §4.4.3.7", "MUST", "PART-TARGET"),
        ("low-latency-invalid", "bis-22 §4.4.3.8", "MUST", "CAN-SKIP-UNTIL"),
        ("low-latency-invalid", "bis-22 §4.4.3.8", "MUST", "CAN-SKIP-DATERANGES"),
        ("low-latency-invalid", "bis-22 §4.4.3.8", "MUST", "HOLD-BACK"),
        ("low-latency-invalid", "bis-22 §4.4.3.8", "MUST", "PART-HOLD-BACK twice"),
        ("low-latency-invalid", "bis-22 §4.4.3.8", "MUST", "PART-HOLD-BACK EXT-X-PART-INF"),
        ("playlist-syntax", "bis-22 §4.4.4", "MUST", ""),
        ("playlist-syntax", "bis-22 §4.4.4.1", "MUST", "REQUIRED"),
        ("extinf-duration-mismatch", "bis-22 §4.4.4.1", "SHOULD", "accura"),
        ("version-too-low", "bis-22 §4.4.4.1", "MUST", "integer"),
        ("extinf-duration-mismatch", "bis-22 §4.4.4.1", "SHOULD", "rounded"),
        ("playlist-syntax", "bis-22 §4.4.4.2", "MUST", ""),
        ("discontinuity-missing", "bis-22 §4.4.4.3", "MUST", ""),
        ("playlist-syntax", "bis-22 §4.4.4.4", "MUST", "METHOD REQUIRED"),
        ("playlist-syntax", "bis-22 §4.4.4.4", "MUST", "NONE"),
        ("playlist-syntax", "bis-22 §4.4.4.4", "MUST", "URI"),
        ("playlist-syntax", "bis-22 §4.4.4.5", "MUST", "URI"),
        ("playlist-syntax", "bis-22 §4.4.4.5", "MUST", "offset"),
        ("playlist-syntax", "bis-22 §4.4.4.9", "MUST", "URI"),
        ("playlist-syntax", "bis-22 §4.4.4.9", "MUST", "DURATION"),
        ("low-latency-invalid", "bis-22 §4.4.4.9", "MUST", "at most"),
        ("playlist-syntax", "bis-22 §4.4.5", "MUST", ""),
        ("playlist-syntax", "bis-22 §4.4.5.1", "MUST", "ID"),
        ("playlist-lenient", "bis-22 §4.4.5.1", "MUST", "START-DATE"),
        ("daterange-invalid", "bis-22 §4.4.5.1", "MUST", "END-DATE START-DATE"),
        ("daterange-invalid", "bis-22 §4.4.5.1", "MUST", "DURATION"),
        ("daterange-invalid", "bis-22 §4.4.5.1", "MUST", "PLANNED-DURATION"),
        ("playlist-lenient", "bis-22 §4.4.5.1", "MUST", "X- AttributeName"),
        ("daterange-invalid", "bis-22 §4.4.5.1", "MUST", "PRE POST"),
        ("playlist-syntax", "bis-22 §4.4.5.1", "MUST", "END-ON-NEXT CLASS"),
        ("daterange-invalid", "bis-22 §4.4.5.1", "MUST", "overlap"),
        ("daterange-invalid", "bis-22 §4.4.5.1", "MUST", "END-ON-NEXT DURATION"),
        ("daterange-invalid", "bis-22 §4.4.5.1", "MUST", "EXT-X-PROGRAM-DATE-TIME"),
        ("playlist-syntax", "bis-22 §4.4.5.1", "MUST", "every"),
        ("daterange-invalid", "bis-22 §4.4.5.1", "MUST", "same ID"),
        ("daterange-invalid", "bis-22 §4.4.5.1", "MUST", "END-DATE DURATION"),
        ("playlist-syntax", "bis-22 §4.4.5.2", "MUST", "once"),
        ("playlist-syntax", "bis-22 §4.4.5.2", "MUST", "SKIPPED-SEGMENTS"),
        ("playlist-syntax", "bis-22 §4.4.5.3", "MUST", "TYPE"),
        ("playlist-syntax", "bis-22 §4.4.5.3", "MUST", "URI REQUIRED"),
        ("low-latency-invalid", "bis-22 §4.4.5.3", "MUST", "EXT-X-ENDLIST"),
        ("playlist-syntax", "bis-22 §4.4.6", "MUST", ""),
        ("playlist-syntax", "bis-22 §4.4.6.1", "MUST", "TYPE"),
        ("playlist-syntax", "bis-22 §4.4.6.1", "MUST", "URI CLOSED-CAPTIONS"),
        ("playlist-syntax", "bis-22 §4.4.6.1", "MUST", "GROUP-ID"),
        ("playlist-syntax", "bis-22 §4.4.6.1", "MUST", "NAME"),
        ("media-group-invalid", "bis-22 §4.4.6.1", "MUST", "AUTOSELECT"),
        ("playlist-syntax", "bis-22 §4.4.6.1", "MUST", "FORCED"),
        ("playlist-syntax", "bis-22 §4.4.6.1", "MUST", "INSTREAM-ID"),
        ("media-group-invalid", "bis-22 §4.4.6.1.1", "MUST", "NAME"),
        ("media-group-invalid", "bis-22 §4.4.6.1.1", "MUST", "DEFAULT"),
        ("codecs-mismatch", "bis-22 §4.4.6.1.1", "MUST", "CODECS"),
        ("playlist-syntax", "bis-22 §4.4.6.2", "MUST", "URI"),
        ("bandwidth-below-peak", "bis-22 §4.4.6.2", "MUST", "BANDWIDTH largest"),
        ("bandwidth-above-peak", "bis-22 §4.4.6.2", "MUST", "BANDWIDTH largest"),
        ("playlist-syntax", "bis-22 §4.4.6.2", "MUST", "BANDWIDTH include"),
        ("average-bandwidth-mismatch", "bis-22 §4.4.6.2", "MUST", "AVERAGE-BANDWIDTH largest"),
        ("codecs-missing", "bis-22 §4.4.6.2", "SHOULD", "CODECS"),
        ("media-group-invalid", "bis-22 §4.4.6.2", "MUST", "AUDIO"),
        ("media-group-invalid", "bis-22 §4.4.6.2", "MUST", "VIDEO"),
        ("media-group-invalid", "bis-22 §4.4.6.2", "MUST", "SUBTITLES"),
        ("media-group-invalid", "bis-22 §4.4.6.2", "MUST", "CLOSED-CAPTIONS"),
        ("bandwidth-below-peak", "bis-22 §4.4.6.2.1", "MUST", "BANDWIDTH"),
        ("resolution-mismatch", "bis-22 §4.4.6.2.1", "MUST", "RESOLUTION"),
        ("timestamps-misaligned", "bis-22 §4.4.6.2.1", "MUST", "6.2.4"),
        ("target-duration-inconsistent", "bis-22 §4.4.6.2.1", "MUST", "6.2.4"),
        ("playlist-syntax", "bis-22 §4.4.6.2.1", "MUST", "SUBTITLES"),
        ("playlist-syntax", "bis-22 §4.4.6.2.1", "MUST", "CLOSED-CAPTIONS"),
        ("playlist-syntax", "bis-22 §4.4.6.3", "MUST", "BANDWIDTH"),
        ("playlist-syntax", "bis-22 §4.4.6.4", "MUST", "DATA-ID"),
        ("playlist-syntax", "bis-22 §4.4.6.4", "MUST", "VALUE"),
        ("session-metadata-invalid", "bis-22 §4.4.6.4", "MUST", "same DATA-ID"),
        ("playlist-syntax", "bis-22 §4.4.6.5", "MUST", "NONE"),
        ("session-metadata-invalid", "bis-22 §4.4.6.5", "MUST", "IV"),
        ("playlist-syntax", "bis-22 §4.4.6.6", "MUST", "once"),
        ("playlist-syntax", "bis-22 §4.4.6.6", "MUST", "SERVER-URI"),
        ("target-duration-exceeded", "bis-22 §6.2.1", "MUST", "divide"),
        ("extinf-duration-mismatch", "bis-22 §6.2.1", "MUST", "divide"),
        ("segment-starts-without-keyframe", "bis-22 §6.2.1", "SHOULD", "key frame"),
        ("segment-unreadable", "bis-22 §6.2.1", "MUST", "URI"),
        ("discontinuity-missing", "bis-22 §6.2.1", "MUST", "encoding parameters"),
        ("segment-unreadable", "bis-22 §6.2.1", "MUST", "immediate"),
        ("live-segment-changed", "bis-22 §6.2.1", "MUST", "appending"),
        ("live-media-sequence-regressed", "bis-22 §6.2.1", "MUST", "appending"),
        ("live-segment-changed", "bis-22 §6.2.1", "MUST", "EVENT"),
        ("live-target-duration-changed", "bis-22 §6.2.1", "MUST", "EXT-X-TARGETDURATION"),
        ("live-playlist-stale", "bis-22 §6.2.1", "MUST", "1.5"),
        ("live-media-sequence-regressed", "bis-22 §6.2.2", "MUST", "incremented"),
        ("live-segment-changed", "bis-22 §6.2.2", "MUST", "incremented"),
        ("live-segment-changed", "bis-22 §6.2.2", "MUST", "order"),
        ("live-discontinuity-sequence", "bis-22 §6.2.2", "MUST", "increment"),
        ("codecs-mismatch", "bis-22 §6.2.4", "MUST", "CODECS"),
        ("timestamps-misaligned", "bis-22 §6.2.4", "MUST", "timestamps"),
        ("target-duration-inconsistent", "bis-22 §6.2.4", "MUST", "same target duration"),
        ("timestamps-misaligned", "bis-22 §6.2.4", "MUST", "first segment"),
        ("average-bandwidth-mismatch", "AS 1.26", "MUST", ""),
        ("bandwidth-below-peak", "AS 1.27", "MUST", ""),
        ("bandwidth-above-peak", "AS 1.27", "MUST", ""),
        ("discontinuity-missing", "AS 7.1", "MUST", ""),
        ("continuity-error", "AS 7.2", "MUST", ""),
        ("discontinuity-missing", "AS 7.2", "MUST", ""),
        ("discontinuity-missing", "AS 7.3", "MUST", ""),
        ("segment-starts-without-keyframe", "AS 7.4", "MUST", ""),
        ("target-duration-exceeded", "AS 7.7", "MUST", ""),
        ("extinf-duration-mismatch", "AS 7.7", "MUST", ""),
        ("extinf-duration-mismatch", "AS 8.1", "MUST", ""),
        ("target-duration-inconsistent", "AS 8.2", "MUST", ""),
        ("timestamps-misaligned", "AS 8.7", "MUST", ""),
        ("discontinuity-missing", "AS 8.13", "MUST", ""),
        ("redirect-to-http", "AS 8.18", "MUST", ""),
        ("timestamps-misaligned", "AS 8.22", "SHOULD", ""),
        ("codecs-missing", "AS 9.1", "MUST", ""),
        ("resolution-missing", "AS 9.2", "MUST", ""),
        ("bandwidth-below-peak", "AS 9.13", "MUST", ""),
        ("bandwidth-above-peak", "AS 9.13", "MUST", ""),
        ("average-bandwidth-missing", "AS 9.14", "MUST", ""),
        ("audio-only-variant-present", "AS tvOS 9.20", "MUST", ""),
        ("cellular-variant-missing", "AS iOS 9.21", "MUST", ""),
        ("playlist-content-type", "AS 10.4", "SHOULD", ""),
        ("low-latency-invalid", "AS 14.1", "MUST", ""),
    ]
}
