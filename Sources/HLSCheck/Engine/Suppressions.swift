import HLSPlaylist

/// In-file exceptions, written as M3U8 comments (a `#` line not starting with `#EXT`, which
/// players ignore, RFC 8216 §4.1):
///
/// - `# hlscheck-disable-next-line RULE[,RULE…]` excuses the rules on the next line that is not
///   itself a comment;
/// - `# hlscheck-disable RULE[,RULE…]` excuses them on every later line, up to a
///   `# hlscheck-enable RULE[,RULE…]` (or the end of the file);
/// - `# hlscheck-disable-file RULE[,RULE…]`, anywhere in a playlist, excuses them in the whole file.
///
/// Rules are separated by commas or spaces; `all`, or no rule at all, means every rule; text after
/// ` -- ` is a free reason. Matching is by hash look-up (next line, file) or binary search over a
/// rule's regions, and usage is recorded once per scope: linear in directives plus findings.
/// What a directive names that does not exist, or excuses nothing, becomes a finding of its own
/// (`suppression-unknown-rule`, `suppression-unused`).
///
/// Bounded: a directive keeps at most `maximumRulesPerDirective` rule names; the rest are counted,
/// not kept, and reported once. A 2 MB comment of 250 000 names therefore costs 20 look-ups and
/// 21 findings, not 250 000 (docs/security.md, "Limits").
struct Suppressions {
    enum Kind: String, CaseIterable {
        case nextLine = "hlscheck-disable-next-line"
        case disable = "hlscheck-disable"
        case enable = "hlscheck-enable"
        case file = "hlscheck-disable-file"
    }

    /// One directive comment as written.
    struct Directive {
        var uri: String
        var line: Int
        /// nil: a comment starting with `hlscheck-` that is no directive (a typo).
        var kind: Kind?
        var word: String
        /// Rule ids as written; `["all"]` when none was given. At most `maximumRulesPerDirective`.
        var rules: [String]
        /// Rule names written after the first `maximumRulesPerDirective`: counted, not kept.
        var omittedRules = 0
    }

    /// Rule names one directive may hold: more than any real list (a list that long is what
    /// `hlscheck-disable-file` or `all` is for), as many as a line's problems (ValueLimits).
    static let maximumRulesPerDirective = ValueLimits.maximumProblemsPerLine

    /// The directives (with the rule each scope is for) that a scope came from, and whether it
    /// excused anything.
    private struct Scope {
        var directives: [Int] = []
        var used = false
    }

    private struct LineKey: Hashable {
        var uri: String
        var line: Int
    }

    /// A `disable` … `enable` region: lines in `start...end` (inclusive) are excused.
    private struct Region {
        var start: Int
        var end: Int
        var directive: Int
        var used = false
    }

    static let all = "all"

    private(set) var directives: [Directive] = []
    /// [file and line: [rule: scope]]
    private var lines: [LineKey: [String: Scope]] = [:]
    /// [file: [rule: scope]]
    private var files: [String: [String: Scope]] = [:]
    /// [file: [rule: regions in line order]]
    private var regions: [String: [String: [Region]]] = [:]
    /// Directives (by index) and rules for which an `enable` closed nothing.
    private var strayEnables: [(directive: Int, rule: String)] = []

    init(_ playlists: [Playlist]) {
        for playlist in playlists {
            add(playlist)
        }
    }

    private mutating func add(_ playlist: Playlist) {
        let comments = playlist.comments.sorted { $0.line < $1.line }
        // The line each comment's next-line directive excuses: the first line after it that is
        // not a comment. Walking the comments from the last one backwards gives every comment that
        // line in one step (a run of N directives is linear, not N²/2 look-ups).
        var nextNonComment: [Int: Int] = [:]
        var following = Int.max
        var followingTarget = Int.max
        for comment in comments.reversed() {
            let target = comment.line + 1 == following ? followingTarget : comment.line + 1
            nextNonComment[comment.line] = target
            (following, followingTarget) = (comment.line, target)
        }
        // Regions open in this file: [rule: index into regions[uri][rule]].
        var open: [String: Int] = [:]
        var fileRegions: [String: [Region]] = [:]
        for comment in comments {
            guard let directive = Self.parse(comment, uri: playlist.uri) else { continue }
            let index = directives.count
            directives.append(directive)
            switch directive.kind {
            case .nextLine?:
                guard let target = nextNonComment[comment.line] else { continue }
                for rule in directive.rules {
                    lines[LineKey(uri: playlist.uri, line: target), default: [:]][rule, default: Scope()].directives
                        .append(index)
                }
            case .file?:
                for rule in directive.rules {
                    files[playlist.uri, default: [:]][rule, default: Scope()].directives.append(index)
                }
            case .disable?:
                for rule in directive.rules {
                    // A second `disable` of an open rule ends the first region where it starts
                    // its own: each line has one region, each region one directive.
                    if let current = open[rule] { fileRegions[rule]?[current].end = comment.line - 1 }
                    fileRegions[rule, default: []].append(
                        Region(start: comment.line + 1, end: Int.max, directive: index))
                    open[rule] = fileRegions[rule, default: []].count - 1
                }
            case .enable?:
                let closing = directive.rules == [Self.all] ? Array(open.keys) : directive.rules
                if closing.isEmpty { strayEnables.append((index, Self.all)) }
                for rule in closing {
                    guard let current = open.removeValue(forKey: rule) else {
                        strayEnables.append((index, rule))
                        continue
                    }
                    fileRegions[rule]?[current].end = comment.line - 1
                }
            case nil:
                break
            }
        }
        if !fileRegions.isEmpty { regions[playlist.uri] = fileRegions }
    }

    /// The directive in a comment, nil for an ordinary comment. Works on the UTF-8 bytes: a
    /// playlist may hold tens of thousands of directives.
    static func parse(_ comment: Comment, uri: String) -> Directive? {
        let prefix = Array("hlscheck-".utf8)
        let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        var text = comment.text
        text.makeContiguousUTF8()  // a no-op for native strings; makes the closure below run
        return text.utf8.withContiguousStorageIfAvailable { bytes -> Directive? in
            var index = 1  // after "#"
            while index < bytes.count, isBlank(bytes[index]) { index += 1 }
            guard bytes.count - index >= prefix.count, bytes[index..<index + prefix.count].elementsEqual(prefix) else {
                return nil
            }
            // Words separated by blanks (and, for rule lists, commas); a free-text reason after
            // a lone "--" is not read. Past the directive word and `maximumRulesPerDirective`
            // rules, words are only counted: no string is made for them.
            var words: [String] = []
            var omitted = 0
            var start = index
            var commaSeparated = false
            while index <= bytes.count {
                let atEnd = index == bytes.count
                let separator = atEnd || isBlank(bytes[index]) || (commaSeparated && bytes[index] == 0x2C)
                if separator {
                    if index > start {
                        let isReason = index - start == 2 && bytes[start] == 0x2D && bytes[start + 1] == 0x2D
                        if isReason { break }
                        if words.count <= maximumRulesPerDirective {
                            words.append(String(decoding: bytes[start..<index], as: UTF8.self))
                        } else {
                            omitted += 1
                        }
                        commaSeparated = true
                    }
                    start = index + 1
                }
                index += 1
            }
            guard let word = words.first else { return nil }
            let rules = words.count > 1 ? Array(words.dropFirst()) : [all]
            return Directive(
                uri: uri, line: comment.line, kind: Kind(rawValue: word), word: word, rules: rules,
                omittedRules: omitted)
        } ?? nil
    }

    /// Whether a directive excuses `rule` at `location`, recording that it did.
    mutating func excuse(_ rule: String, at location: SourceLocation?) -> Bool {
        guard let location else { return false }
        var excused = false
        for key in [rule, Self.all] {
            let lineKey = LineKey(uri: location.uri, line: location.line)
            if lines[lineKey]?[key] != nil {
                lines[lineKey]?[key]?.used = true
                excused = true
            }
            if files[location.uri]?[key] != nil {
                files[location.uri]?[key]?.used = true
                excused = true
            }
            // The index alone leaves this scope: a copy of the list kept alive here would make
            // the write below copy the whole list (quadratic over a file's regions).
            if let index = regions[location.uri]?[key].flatMap({ Self.region(containing: location.line, in: $0) }) {
                regions[location.uri]?[key]?[index].used = true
                excused = true
            }
        }
        return excused
    }

    /// Binary search over a rule's regions, which are in line order and do not overlap.
    private static func region(containing line: Int, in list: [Region]) -> Int? {
        var low = 0, high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle].end < line { low = middle + 1 } else { high = middle }
        }
        return low < list.count && list[low].start <= line && line <= list[low].end ? low : nil
    }

    /// Findings about the directives themselves: rule ids that no rule has, and directives (or
    /// rules within one) that excused nothing. `known` are the ids a directive may name;
    /// `checked` the rules that ran (a rule that did not run could not have been excused, so a
    /// directive naming it is not called unused).
    func directiveFindings(known: Set<String>, checked: Set<String>) -> (unknown: [Finding], unused: [Finding]) {
        var unknown: [Finding] = []
        var unusedRules = [[String]](repeating: [], count: directives.count)
        var usedRules = [Set<String>](repeating: [], count: directives.count)
        func collect(_ scope: Scope, _ rule: String) {
            guard scope.used else { return }
            for index in scope.directives { usedRules[index].insert(rule) }
        }
        for byRule in lines.values { for (rule, scope) in byRule { collect(scope, rule) } }
        for byRule in files.values { for (rule, scope) in byRule { collect(scope, rule) } }
        for byRule in regions.values {
            for (rule, list) in byRule {
                for region in list where region.used { usedRules[region.directive].insert(rule) }
            }
        }
        var stray = [Set<String>](repeating: [], count: directives.count)
        for (index, rule) in strayEnables { stray[index].insert(rule) }

        for (index, directive) in directives.enumerated() {
            let location = SourceLocation(uri: directive.uri, line: directive.line)
            guard let kind = directive.kind else {
                let names = Kind.allCases.map(\.rawValue).joined(separator: ", ")
                unknown.append(
                    Finding(
                        "\"\(directive.word)\" is not a hlscheck directive (\(names)); this comment excuses nothing",
                        at: location))
                continue
            }
            let strange = Set(directive.rules.filter { $0 != Self.all && !known.contains($0) })
            var named: Set<String> = []
            // Each unknown name once, in the order written.
            for rule in directive.rules where strange.contains(rule) && named.insert(rule).inserted {
                unknown.append(
                    Finding(
                        "# \(kind.rawValue) names \"\(rule)\", which is no rule id (hlscheck rules lists them); it excuses nothing",
                        at: location))
            }
            if directive.omittedRules > 0 {
                unknown.append(
                    Finding(
                        "# \(kind.rawValue) names \(directive.rules.count + directive.omittedRules) rules; hlscheck reads at most \(Self.maximumRulesPerDirective) per directive, so the last \(directive.omittedRules) excuse nothing: split the list over several directives, or write hlscheck-disable-file or all",
                        at: location))
            }
            if kind == .enable {
                unusedRules[index] = directive.rules.filter { stray[index].contains($0) && !strange.contains($0) }
                continue
            }
            unusedRules[index] = directive.rules.filter { rule in
                !strange.contains(rule) && (rule == Self.all || checked.contains(rule))
                    && !usedRules[index].contains(rule)
            }
        }
        var unused: [Finding] = []
        for (index, rules) in unusedRules.enumerated() where !rules.isEmpty {
            let directive = directives[index]
            let list = rules.joined(separator: ", ")
            let message =
                switch directive.kind {
                case .enable?:
                    "# hlscheck-enable \(list) re-enables nothing: no hlscheck-disable before it in this file left it disabled; remove it"
                case .nextLine?:
                    "# hlscheck-disable-next-line \(list) excused nothing: no such finding on the next line; remove it (or the rule from it)"
                case .file?:
                    "# hlscheck-disable-file \(list) excused nothing: no such finding in this file; remove it (or the rule from it)"
                default:
                    "# hlscheck-disable \(list) excused nothing: no such finding before its hlscheck-enable; remove it (or the rule from it)"
                }
            unused.append(Finding(message, at: SourceLocation(uri: directive.uri, line: directive.line)))
        }
        return (unknown, unused)
    }
}
