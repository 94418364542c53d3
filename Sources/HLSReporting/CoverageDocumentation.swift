package import HLSCheck

/// docs/coverage.md: every requirement of the catalogue (`SpecRequirements`) with the rules
/// that enforce it, generated so that it cannot drift from the code.
package enum CoverageDocumentation {
    /// The command that writes docs/coverage.md.
    package static let regenerateCommand = "swift run hlscheck rules --format coverage > docs/coverage.md"

    /// The whole of docs/coverage.md for `result` (by default the rules' coverage today).
    package static func markdown(_ result: SpecCoverage.Result = SpecCoverage.compute(SpecCoverage.ruleItems)) -> String
    {
        var out = """
            <!-- Generated from the requirements catalogue and the rules by `\(regenerateCommand)`; \
            do not edit by hand. A test fails when this file differs from what the code generates. -->
            # Coverage of the specifications

            Every requirement of the two specifications hlscheck checks against, and the rules
            ([rules.md](rules.md)) that enforce it:

            - \(SpecRequirements.protocolRevision), §4–6: RFC 8216's section in brackets where
              its number differs, *new* where RFC 8216 has no such section;
            - Apple's \(SpecRequirements.appleRevision):
              items 1–2, 6–10 and 14, with the iOS and tvOS amendments to those items.

            Each MUST (MUST NOT, REQUIRED, SHALL) and SHOULD (SHOULD NOT, RECOMMENDED) that binds a
            playlist, its segments or its server has its own row, paraphrased; sentences that bind
            clients (all of bis-22 §6.3, "clients MUST …" elsewhere) and items without such a keyword
            are left out. Rows marked *not machine-checkable* (the author's intent, the source
            material, client behaviour) are listed but not counted.

            *Covered*: rules enforce the whole requirement. *Partial*: they enforce part of it; the
            row says what they leave out. *Not checked*: no rule does yet; the row says why.


            """
        out +=
            "| source | MUST covered | MUST partial | MUST not checked | SHOULD covered | SHOULD partial | SHOULD not checked | not machine-checkable |\n"
        out += "|---|---:|---:|---:|---:|---:|---:|---:|\n"
        for source in SpecRequirement.Source.allCases {
            let rows = result.requirements.filter { $0.requirement.source == source }
            var cells: [String] = []
            for level in SpecRequirement.Level.allCases {
                let checkable = rows.filter { $0.requirement.level == level && $0.requirement.isCheckable }
                let covered = checkable.filter {
                    if case .covered = $0.status { return true }; return false
                }.count
                let partial = checkable.filter {
                    if case .partial = $0.status { return true }; return false
                }.count
                let unchecked = checkable.count - covered - partial
                cells += ["\(covered) of \(checkable.count)", "\(partial)", "\(unchecked)"]
            }
            cells.append("\(rows.filter { !$0.requirement.isCheckable }.count)")
            out += "| \(title(source)) | " + cells.joined(separator: " | ") + " |\n"
        }
        for source in SpecRequirement.Source.allCases {
            out += "\n## \(title(source))\n\n"
            out += "| section | level | requirement | enforced by |\n|---|---|---|---|\n"
            for (requirement, status) in result.requirements where requirement.source == source {
                out +=
                    "| \(sectionCell(requirement)) | \(requirement.level.rawValue) | \(cell(requirement.text)) | \(cell(statusText(status))) |\n"
            }
        }
        return out
    }

    static func title(_ source: SpecRequirement.Source) -> String {
        switch source {
        case .bis: "draft-pantos-hls-rfc8216bis-22"
        case .apple: "Apple HLS Authoring Specification"
        }
    }

    static func sectionCell(_ requirement: SpecRequirement) -> String {
        switch requirement.source {
        case .bis:
            if requirement.isNewInBis { return "§\(requirement.section) (*new*)" }
            return requirement.rfc8216.map { "§\(requirement.section) (§\($0))" } ?? "§\(requirement.section)"
        case .apple:
            return requirement.platform.map { "\(requirement.section) (\($0))" } ?? requirement.section
        }
    }

    static func statusText(_ status: SpecCoverage.Status) -> String {
        func links(_ ids: [String]) -> String {
            ids.map { "[`\($0)`](rules.md#\($0))" }.joined(separator: ", ")
        }
        switch status {
        case .covered(let ids): return links(ids)
        case .partial(let ids, let gap): return "\(links(ids)) — partial: \(gap)"
        case .notChecked(let reason): return "not checked — \(reason)"
        case .notCheckable(let reason): return "not machine-checkable — \(reason)"
        }
    }

    /// Table cell text: `|` would end the cell, a line break the row.
    static func cell(_ text: String) -> String {
        text.replacing("|", with: "\\|").replacing("\n", with: " ")
    }
}
