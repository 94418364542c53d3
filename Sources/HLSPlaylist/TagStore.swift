// Every tag of a playlist, as written, at 12 bytes a tag plus its value's bytes.
//
// A media playlist of 100 000 segments has some 300 000 tags (EXTINF, PROGRAM-DATE-TIME, …);
// as `Tag` values that is two strings each, most of them a heap allocation. Here a tag is one
// record: its line, its name (a known tag's kind, or an index into the few other names), and
// where its value lies in one shared byte buffer. `Playlist.tags` makes the `Tag`s on demand.

/// The tags of one playlist, in file order.
struct TagStore: Sendable, Hashable {
    /// One tag. `name` ≥ 0: the index of a known kind in `TagStore.kinds`; < 0: `-1 - index`
    /// into `names`. `valueLength == Entry.noValue`: the tag has no value (no colon);
    /// `Entry.longValue`: the length is in `longLengths`.
    struct Entry: Sendable, Hashable {
        var valueStart: UInt32
        var line: UInt32
        var valueLength: UInt16
        var name: Int16

        static let noValue: UInt16 = .max
        static let longValue: UInt16 = .max - 1
    }

    /// Every known kind, by index (`Entry.name`).
    static let kinds: [TagKind] = TagKind.allCases
    /// Each known kind's index in `kinds`.
    static let kindIndex: [TagKind: Int32] = {
        var index: [TagKind: Int32] = [:]
        for (i, kind) in kinds.enumerated() { index[kind] = Int32(i) }
        return index
    }()

    private(set) var entries: [Entry] = []
    /// Every value's bytes, one after the other.
    private(set) var text: [UInt8] = []
    /// The names that are no known kind (vendor tags, non-ASCII spellings), each once.
    private(set) var names: [String] = []
    /// Each of `names` by its index, while tags are added.
    private var nameIndex: [String: Int32] = [:]
    /// The lengths of values of `Entry.longValue` bytes or more, by tag index.
    private var longLengths: [Int: Int] = [:]
    /// Set when a line number or the buffer outgrows 32 bits (a file of gigabytes): from then on
    /// every tag is kept as a `Tag`.
    private var wide: [Tag]?

    init() {}

    init(_ tags: [Tag]) {
        for tag in tags {
            if var value = tag.value {
                value.withUTF8 { bytes in append(name: tag.name, value: bytes, line: tag.line) }
            } else {
                append(name: tag.name, value: nil, line: tag.line)
            }
        }
    }

    /// Room for `count` tags and `bytes` bytes of values.
    mutating func reserve(tags count: Int, bytes: Int) {
        entries.reserveCapacity(count)
        text.reserveCapacity(bytes)
    }

    var count: Int { wide?.count ?? entries.count }

    /// A known tag.
    mutating func append(kind: TagKind, value: UnsafeBufferPointer<UInt8>?, line: Int) {
        append(nameCode: Self.kindIndex[kind] ?? 0, nameString: kind.rawValue, value: value, line: line)
    }

    /// A known tag whose code (its index in `kinds`) the caller has already.
    mutating func append(kind: TagKind, code: Int32, value: UnsafeBufferPointer<UInt8>?, line: Int) {
        append(nameCode: code, nameString: kind.rawValue, value: value, line: line)
    }

    /// A tag by its name as written (leading `#` included).
    mutating func append(name: String, value: UnsafeBufferPointer<UInt8>?, line: Int) {
        let code: Int32
        if let known = nameIndex[name] {
            code = known
        } else {
            names.append(name)
            code = -Int32(truncatingIfNeeded: min(names.count, Int(Int32.max)))
            nameIndex[name] = code
        }
        append(nameCode: code, nameString: name, value: value, line: line)
    }

    private mutating func append(nameCode: Int32, nameString: String, value: UnsafeBufferPointer<UInt8>?, line: Int) {
        if wide == nil {
            let start = text.count
            if let line32 = UInt32(exactly: line), let name16 = Int16(exactly: nameCode),
                value.map({ UInt32(exactly: start + $0.count) != nil }) ?? true
            {
                var length = Entry.noValue
                if let value {
                    text.append(contentsOf: value)
                    if value.count < Int(Entry.longValue) {
                        length = UInt16(value.count)
                    } else {
                        length = Entry.longValue
                        longLengths[entries.count] = value.count
                    }
                }
                entries.append(Entry(valueStart: UInt32(start), line: line32, valueLength: length, name: name16))
                return
            }
            wide = tags
            entries = []
            text = []
            longLengths = [:]
        }
        wide?.append(Tag(name: nameString, value: value.map { String(decoding: $0, as: UTF8.self) }, line: line))
    }

    /// The name of the tag at `index`.
    func name(at index: Int) -> String {
        if let wide { return wide[index].name }
        return name(of: entries[index])
    }

    private func name(of entry: Entry) -> String {
        entry.name >= 0 ? Self.kinds[Int(entry.name)].rawValue : names[Int(-1 - entry.name)]
    }

    /// The value of the tag at `index`, nil when it has no colon.
    func value(at index: Int) -> String? {
        if let wide { return wide[index].value }
        guard let range = valueRange(at: index) else { return nil }
        return text.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self)
        }
    }

    /// Where the value of the tag at `index` lies in `text`, nil when it has no colon.
    private func valueRange(at index: Int) -> Range<Int>? {
        let entry = entries[index]
        let start = Int(entry.valueStart)
        switch entry.valueLength {
        case Entry.noValue: return nil
        case Entry.longValue: return start..<start + (longLengths[index] ?? 0)
        default: return start..<start + Int(entry.valueLength)
        }
    }

    /// Whether the value of the tag at `index` contains `needle` (ASCII bytes).
    func value(at index: Int, contains needle: String) -> Bool {
        if let wide { return wide[index].value?.contains(needle) ?? false }
        guard let range = valueRange(at: index) else { return false }
        let pattern = Array(needle.utf8)
        guard !pattern.isEmpty, range.count >= pattern.count else { return pattern.isEmpty }
        let start = range.lowerBound, end = range.upperBound
        // A non-ASCII value: Character matching, as `String.contains` does.
        if text[start..<end].contains(where: { $0 >= 0x80 }) { return value(at: index)?.contains(needle) ?? false }
        for offset in start...(end - pattern.count) where text[offset] == pattern[0] {
            var equal = true
            for k in 1..<pattern.count where text[offset + k] != pattern[k] {
                equal = false
                break
            }
            if equal { return true }
        }
        return false
    }

    /// The line of the tag at `index`.
    func line(at index: Int) -> Int {
        if let wide { return wide[index].line }
        return Int(entries[index].line)
    }

    /// Every tag, as `Tag` values.
    var tags: [Tag] {
        if let wide { return wide }
        var result: [Tag] = []
        result.reserveCapacity(entries.count)
        for index in entries.indices {
            result.append(Tag(name: name(at: index), value: value(at: index), line: line(at: index)))
        }
        return result
    }

    /// The indices of the tags named `name` (string equality, as `Tag.name == name`).
    func indices(named name: String) -> [Int] {
        if let wide { return wide.indices.filter { wide[$0].name == name } }
        // Each distinct name is compared once, not each tag.
        // At most a known kind and a spelling of it among the other names: a short array, searched
        // without hashing for each of the playlist's (often 300 000) tags.
        var matchingKinds: [Int16] = []
        for (i, kind) in Self.kinds.enumerated() where kind.rawValue == name { matchingKinds.append(Int16(i)) }
        for (i, other) in names.enumerated() where other == name && i < Int(Int16.max) {
            matchingKinds.append(-1 - Int16(i))
        }
        guard let first = matchingKinds.first else { return [] }
        if matchingKinds.count == 1 { return entries.indices.filter { entries[$0].name == first } }
        return entries.indices.filter { matchingKinds.contains(entries[$0].name) }
    }

    /// The lines of the tags named `name`, in file order.
    func lines(named name: String) -> [Int] { indices(named: name).map { line(at: $0) } }

    static func == (lhs: TagStore, rhs: TagStore) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for index in 0..<lhs.count {
            guard lhs.line(at: index) == rhs.line(at: index), lhs.name(at: index) == rhs.name(at: index),
                lhs.value(at: index) == rhs.value(at: index)
            else { return false }
        }
        return true
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for index in 0..<count {
            hasher.combine(line(at: index))
            hasher.combine(name(at: index))
            hasher.combine(value(at: index))
        }
    }
}
