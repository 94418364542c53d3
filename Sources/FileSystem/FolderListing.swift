// The names of a folder's entries that may be symbolic links, read once: the loader judges
// 100 000 segment names in one folder against the stream's root without a `realpath` each.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

package enum FolderListing {
    /// Names in `folder` that are symbolic links, or whose type the file system does not say
    /// (so they may be); nil when the folder cannot be listed.
    package static func possibleSymlinks(in folder: String) -> Set<String>? {
        guard let directory = opendir(folder) else { return nil }
        defer { closedir(directory) }
        var names: Set<String> = []
        while let entry = readdir(directory) {
            let type = entry.pointee.d_type
            guard type == UInt8(DT_LNK) || type == UInt8(DT_UNKNOWN) else { continue }
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            names.insert(name)
        }
        return names
    }
}
