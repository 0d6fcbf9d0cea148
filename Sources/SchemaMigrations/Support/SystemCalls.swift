#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The few operating-system services the library and the command use that `FoundationEssentials`
/// does not offer (Foundation's `DispatchTime`, `fileExists(atPath:isDirectory:)`, `Thread`,
/// `DateFormatter`), each a thin call of POSIX's.
package enum SystemCalls {
    /// Nanoseconds of a clock that never goes back (`CLOCK_MONOTONIC`), for durations.
    package static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    }

    /// What is at `path`: a directory, something else, or nothing (symbolic links followed).
    package enum FileKind: Sendable { case directory, other, missing }

    package static func fileKind(atPath path: String) -> FileKind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        return (info.st_mode & S_IFMT) == S_IFDIR ? .directory : .other
    }

    /// Runs `body` on `count` threads of their own (not a pool capped at the number of cores:
    /// the work waits on `fsync`), and returns when every one has returned.
    package static func runOnThreads(_ count: Int, _ body: @escaping @Sendable () -> Void) {
        final class Box: @unchecked Sendable {  // handed to one thread, read once, then released
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        #if canImport(Darwin)
            var threads: [pthread_t?] = []
        #else
            var threads: [pthread_t] = []
        #endif
        for _ in 0..<max(0, count) {
            let box = Unmanaged.passRetained(Box(body)).toOpaque()
            #if canImport(Darwin)
                var thread: pthread_t?
            #else
                var thread = pthread_t()
            #endif
            let created = pthread_create(
                &thread, nil,
                { argument in
                    let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
                    box.body()
                    return nil
                }, box)
            if created == 0 {
                threads.append(thread)
            } else {
                Unmanaged<Box>.fromOpaque(box).takeRetainedValue().body()  // no thread to be had: run it here
            }
        }
        #if canImport(Darwin)
            for thread in threads { if let thread { pthread_join(thread, nil) } }
        #else
            for thread in threads { pthread_join(thread, nil) }
        #endif
    }

    /// The date in UTC as `yyyyMMdd'T'HHmmss'Z'` (`20261122T153000Z`), for file names.
    package static func compactUTC(_ date: Date) -> String {
        let (parts, _) = utcParts(date)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }

    /// The date in UTC as ISO 8601 with milliseconds (`2026-11-22T15:30:00.123Z`).
    package static func iso8601UTC(_ date: Date) -> String {
        let (parts, milliseconds) = utcParts(date)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let millis =
            milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        return
            "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(millis)Z"
    }

    private static func utcParts(_ date: Date) -> (tm, Int) {
        let totalMilliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
        let seconds = (totalMilliseconds / 1000).rounded(.down)
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return (parts, Int(totalMilliseconds - seconds * 1000))
    }

    /// Writes all of `text` to a file descriptor (standard output is 1, standard error 2), unbuffered
    /// as `FileHandle.write` is; gives up on an error other than an interrupted call.
    package static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                #if canImport(Glibc)
                    Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                #else
                    Darwin.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                #endif
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Everything a file descriptor holds until its end (standard input is 0).
    package static func readToEnd(_ descriptor: Int32) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return data }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    /// The bytes of the file at `path`, nil when it cannot be read (missing, a directory, no
    /// permission), as `FileManager.default.contents(atPath:)` says, without instantiating a
    /// `FileManager`: the `migrate` command reads its plan's files on every run.
    package static func contents(atPath path: String) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        let size = fstat(descriptor, &info) == 0 && info.st_size > 0 ? Int(info.st_size) : 0
        var data = Data(count: size)
        var filled = 0
        while true {
            if filled == data.count { data.count += max(4096, data.count) }  // the file grew, or stat said 0
            let count = data.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            filled += count
        }
        data.count = filled
        return data
    }

    /// Whether a file descriptor is a terminal.
    package static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// Ends the process with `status`.
    package static func exitProcess(_ status: Int32) -> Never { exit(status) }

    /// Sleeps the calling thread for `seconds` (nothing for zero, negative or NaN).
    package static func sleep(seconds: TimeInterval) {
        guard seconds > 0 else { return }
        let whole = min(seconds.rounded(.down), Double(Int32.max))
        var request = timespec(tv_sec: time_t(whole), tv_nsec: Int((seconds - whole) * 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }

    /// Whether a process of this host with that id exists (it may belong to another user).
    package static func processExists(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
