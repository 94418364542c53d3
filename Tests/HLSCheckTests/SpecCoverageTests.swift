import HLSCheck
import Testing

@Suite struct SpecCoverageTests {
    /// Requirements that share a section, platform and level, which a rule's sentence must tell apart.
    static var groups: [[SpecRequirement]] {
        var order: [String] = []
        var byGroup: [String: [SpecRequirement]] = [:]
        for requirement in SpecRequirements.all {
            let group = "\(requirement.reference) \(requirement.level.rawValue)"
            if byGroup[group] == nil { order.append(group) }
            byGroup[group, default: []].append(requirement)
        }
        return order.compactMap { byGroup[$0] }
    }

    /// A requirement no sentence can select would never show as covered, whatever the rules do.
    @Test func everyRequirementOfASharedSectionHasKeysThatSelectIt() {
        for group in Self.groups where group.count > 1 {
            for requirement in group {
                #expect(
                    !requirement.keys.isEmpty,
                    "\(requirement.reference) \(requirement.level.rawValue) “\(requirement.text)” shares its section and level: give it keys"
                )
                let all = SpecRequirements.all
                let candidates = all.indices.filter {
                    all[$0].reference == requirement.reference && all[$0].level == requirement.level
                }
                let named = SpecCoverage.matches(candidates, in: all, for: requirement.keys.joined(separator: " "))
                #expect(
                    named.map { all[$0] } == [requirement],
                    "the keys \(requirement.keys) of \(requirement.reference) name \(named.map { all[$0].text }) instead"
                )
            }
        }
    }

    /// The interim table names rules that exist and requirements of the catalogue.
    @Test func theInterimTableNamesRealRulesAndRequirements() {
        let ids = Set(RuleCatalogue.descriptions.map(\.id))
        for item in SpecCoverage.ruleItems {
            #expect(ids.contains(item.ruleID), "\(item.ruleID) is no rule")
        }
        let result = SpecCoverage.compute(SpecCoverage.ruleItems)
        #expect(
            result.unmatched.isEmpty,
            "items naming no requirement: \(result.unmatched.map { "\($0.ruleID) \($0.reference) \($0.level) \($0.requirement)" })"
        )
    }

    @Test func aSpecItemWithAWrongSectionOrLevelIsReportedNotDropped() {
        let result = SpecCoverage.compute([
            ("r1", "AS 9.15", "SHOULD", "FRAME-RATE"),  // 9.15 is a MUST
            ("r2", "bis-22 §4.4.9", "MUST", "anything"),  // no such section
            ("r3", "bis-22 §4.4.6.2", "MUST", "the variant's peak"),  // names none of the section's MUSTs
            ("r4", "RFC 8216 §3.4", "MUST", "ID3"),  // another document: not catalogued
            ("r5", "AS 11.1", "SHOULD", "TLS"),  // Apple item outside the catalogue's scope
            ("r6", "AS 9.15", "MUST", "FRAME-RATE"),
        ])
        #expect(result.unmatched.map(\.ruleID) == ["r1", "r2", "r3"])
        let frameRate = result.requirements.first { $0.requirement.reference == "AS 9.15" }
        #expect(frameRate?.status == .covered(["r6"]))
    }

    /// A rule's sentence that bundles several requirements of a section covers each of them, and a
    /// key inside a longer one (HOLD-BACK in PART-HOLD-BACK) does not count on its own.
    @Test func aBundledSentenceNamesEachRequirementItParaphrases() {
        let sentence =
            "CAN-SKIP-UNTIL is at least six target durations, HOLD-BACK at least three, and PART-HOLD-BACK, required with EXT-X-PART-INF, at least twice the part target."
        let result = SpecCoverage.compute([("low-latency-invalid", "bis-22 §4.4.3.8", "MUST", sentence)])
        let named = result.requirements.filter { $0.status.ruleIDs == ["low-latency-invalid"] }.map(\.requirement.keys)
        #expect(
            named == [
                ["CAN-SKIP-UNTIL"], ["HOLD-BACK"], ["PART-HOLD-BACK", "twice"], ["PART-HOLD-BACK", "EXT-X-PART-INF"],
            ])
        let partOnly = SpecCoverage.compute([
            ("r", "bis-22 §4.4.3.8", "MUST", "PART-HOLD-BACK is at least twice the part target.")
        ])
        #expect(
            partOnly.requirements.filter { $0.status.ruleIDs == ["r"] }.map(\.requirement.keys) == [
                ["PART-HOLD-BACK", "twice"]
            ])
    }

    @Test func aPlatformItemIsNotTheGeneralOne() {
        let result = SpecCoverage.compute([("only-tvos", "AS tvOS 9.20", "MUST", "")])
        let general = result.requirements.first { $0.requirement.reference == "AS 9.20" }
        let tvOS = result.requirements.first { $0.requirement.reference == "AS tvOS 9.20" }
        #expect(general?.status.ruleIDs == [])
        #expect(tvOS?.status == .covered(["only-tvos"]))
    }

    @Test func aGapMakesCoveragePartialAndIsTheReasonWithoutRules() {
        let result = SpecCoverage.compute([("discontinuity-missing", "AS 7.1", "MUST", "")])
        let sequence = result.requirements.first { $0.requirement.reference == "AS 7.1" }
        guard case .partial(let ids, let gap)? = sequence?.status else {
            Issue.record("AS 7.1 is \(String(describing: sequence?.status))")
            return
        }
        #expect(ids == ["discontinuity-missing"])
        #expect(gap.contains("content itself"))
        let none = SpecCoverage.compute([]).requirements.first { $0.requirement.reference == "AS 8.24" }
        #expect(none?.status == .notChecked("needs the HTTP response headers"))
    }

    @Test(arguments: [
        ("4.4.6.2", "4.3.4.2"), ("4.4.6.2.1", "4.3.4.2.1"), ("4.4.2.2", "4.3.5.2"), ("4.4.4.5", "4.3.2.5"),
        ("4.4.5.1", "4.3.2.7"), ("4.4.5.1.1", "4.3.2.7.1"), ("4.4.1.2", "4.3.1.2"), ("4.4.3.1", "4.3.3.1"),
    ])
    func bisSectionsCarryTheirRFC8216Number(bis: String, rfc: String) throws {
        let requirement = try #require(SpecRequirements.all.first { $0.source == .bis && $0.section == bis })
        #expect(requirement.rfc8216 == rfc)
        #expect(!requirement.isNewInBis)
    }

    @Test(arguments: ["4.4.2.3", "4.4.3.8", "4.4.4.9", "4.4.5.3", "4.4.6.6", "6.2.5.2", "6.2.6"])
    func sectionsNewInBisHaveNoRFC8216Number(bis: String) throws {
        let requirement = try #require(SpecRequirements.all.first { $0.source == .bis && $0.section == bis })
        #expect(requirement.rfc8216 == nil)
        #expect(requirement.isNewInBis)
    }
}
