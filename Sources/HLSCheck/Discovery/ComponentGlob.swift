/// The glob of one path component, as fnmatch(3) reads it without flags: `*` any run of
/// characters, `?` one character, `[…]` one of a set (`[!…]` or `[^…]` one not in it, `a-z` a
/// range, `]` first in the set a member), `\x` the character x. An `[` that no `]` closes is itself.
///
/// Matched by walking every position of the pattern at once over the name's characters:
/// pattern × name steps. fnmatch backtracks at each `*`, so a pattern of many stars costs the
/// name's length to the power of their number — an `ignore:` line must not be able to hang
/// folder discovery.
struct ComponentGlob: Sendable {
    enum Token: Sendable {
        case anyRun
        case anyOne
        case set([ClosedRange<Unicode.Scalar>], negated: Bool)
        case literal(Unicode.Scalar)
    }

    let tokens: [Token]
    /// Whether the component is `**`: any number of components (`IgnorePatterns`).
    let isAnyComponents: Bool

    init(_ pattern: String) {
        isAnyComponents = pattern == "**"
        let scalars = Array(pattern.unicodeScalars)
        var tokens: [Token] = []
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "*":
                // A run of stars is one star.
                if case .anyRun? = tokens.last {} else { tokens.append(.anyRun) }
                index += 1
            case "?":
                tokens.append(.anyOne)
                index += 1
            case "\\" where index + 1 < scalars.count:
                tokens.append(.literal(scalars[index + 1]))
                index += 2
            case "[":
                if let (set, end) = Self.set(scalars, from: index) {
                    tokens.append(set)
                    index = end
                } else {
                    tokens.append(.literal(scalar))
                    index += 1
                }
            default:
                tokens.append(.literal(scalar))
                index += 1
            }
        }
        self.tokens = tokens
    }

    /// The set that starts with the `[` at `start`, and the index after its `]`; nil when no
    /// `]` closes it.
    private static func set(_ scalars: [Unicode.Scalar], from start: Int) -> (Token, Int)? {
        var index = start + 1
        var negated = false
        if index < scalars.count, scalars[index] == "!" || scalars[index] == "^" {
            negated = true
            index += 1
        }
        var ranges: [ClosedRange<Unicode.Scalar>] = []
        var first = true
        while index < scalars.count {
            var scalar = scalars[index]
            if scalar == "]", !first { return (.set(ranges, negated: negated), index + 1) }
            first = false
            if scalar == "\\", index + 1 < scalars.count {
                index += 1
                scalar = scalars[index]
            }
            index += 1
            if index + 1 < scalars.count, scalars[index] == "-", scalars[index + 1] != "]" {
                var upper = scalars[index + 1]
                index += 2
                if upper == "\\", index < scalars.count {
                    upper = scalars[index]
                    index += 1
                }
                // A reversed range matches nothing, as in fnmatch.
                if scalar <= upper { ranges.append(scalar...upper) }
            } else {
                ranges.append(scalar...scalar)
            }
        }
        return nil
    }

    /// Whether `name` matches the whole pattern.
    func matches(_ name: String) -> Bool {
        // reached[i]: the name read so far matches the pattern's first i tokens.
        var reached = [Bool](repeating: false, count: tokens.count + 1)
        reached[0] = true
        close(&reached)
        for scalar in name.unicodeScalars {
            var next = [Bool](repeating: false, count: tokens.count + 1)
            var any = false
            for (index, token) in tokens.enumerated() where reached[index] {
                switch token {
                case .anyRun:
                    next[index] = true
                case .anyOne:
                    next[index + 1] = true
                case .set(let ranges, let negated):
                    if ranges.contains(where: { $0.contains(scalar) }) != negated { next[index + 1] = true }
                case .literal(let literal):
                    if literal == scalar { next[index + 1] = true }
                }
                any = true
            }
            guard any else { return false }
            close(&next)
            reached = next
        }
        return reached[tokens.count]
    }

    /// A star may match nothing: reaching it reaches what follows it too.
    private func close(_ reached: inout [Bool]) {
        for (index, token) in tokens.enumerated() where reached[index] {
            if case .anyRun = token { reached[index + 1] = true }
        }
    }
}
