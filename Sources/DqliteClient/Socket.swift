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

/// A blocking TCP connection with a connect timeout and per-call deadlines, over POSIX sockets
/// (Foundation on Linux has no TCP stream API). Closes its descriptor in `deinit`.
final class Socket {
    /// The `host:port` this socket is connected to.
    let address: String
    private var descriptor: Int32
    /// Bytes received and not yet consumed: `buffer[bufferStart..<bufferEnd]`.
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    private var bufferStart = 0
    private var bufferEnd = 0

    /// Connects to `address` ("host:port"), giving up after `timeout`.
    /// - Throws: `DqliteError` `.misuse` for an address that does not parse, `.connectionClosed`
    ///   when the node refuses or cannot be reached, `.timeout` when it does not answer in time.
    init(address: String, timeout: Duration) throws {
        self.address = address
        let (host, port) = try Socket.split(address)
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Socket.streamType
        var info: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, port, &hints, &info)
        guard status == 0, let first = info else {
            throw DqliteError(
                code: .misuse, message: "cannot resolve \(host): \(String(cString: gai_strerror(status)))",
                address: address)
        }
        defer { freeaddrinfo(info) }
        descriptor = socket(first.pointee.ai_family, Socket.streamType, 0)
        guard descriptor >= 0 else { throw Socket.error(.connectionClosed, "socket", address) }
        do {
            try connect(first.pointee.ai_addr, first.pointee.ai_addrlen, timeout: timeout)
            try configure()
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// Whether the descriptor is still open (not yet closed by ``close()`` or a failure).
    var isOpen: Bool { descriptor >= 0 }

    /// Closes the connection; later calls fail with `.connectionClosed`.
    func close() {
        if descriptor >= 0 {
            #if canImport(Glibc)
                _ = Glibc.close(descriptor)
            #else
                _ = Darwin.close(descriptor)
            #endif
            descriptor = -1
        }
    }

    /// Writes all of `bytes`, waiting for room only when the kernel's buffer is full.
    func send(_ bytes: [UInt8], deadline: ContinuousClock.Instant) throws {
        var offset = 0
        while offset < bytes.count {
            try checkOpen()
            let written = bytes.withUnsafeBytes { buffer in
                #if canImport(Glibc)
                    Glibc.send(
                        descriptor, buffer.baseAddress! + offset, buffer.count - offset,
                        Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                #else
                    Darwin.send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, MSG_DONTWAIT)
                #endif
            }
            if written >= 0 {
                offset += written
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                try wait(for: Int16(POLLOUT), until: deadline)
            } else if errno != EINTR {
                let failure = Socket.error(.connectionClosed, "send", address)
                close()
                throw failure
            }
        }
    }

    /// Reads exactly `count` bytes, through a buffer: a response's header and body, often the
    /// next batch too, arrive with one system call.
    /// A large body (a big batch of rows) goes straight from the kernel into the result,
    /// once what the buffer already holds is taken.
    func receive(_ count: Int, deadline: ContinuousClock.Instant) throws -> [UInt8] {
        let buffered = min(count, bufferEnd - bufferStart)
        if count - buffered >= buffer.count {
            return try [UInt8](unsafeUninitializedCapacity: count) { bytes, initialized in
                buffer.withUnsafeBytes { source in
                    UnsafeMutableRawBufferPointer(bytes).copyMemory(
                        from: UnsafeRawBufferPointer(rebasing: source[bufferStart..<(bufferStart + buffered)]))
                }
                bufferStart += buffered
                initialized = buffered
                while initialized < count {
                    initialized += try read(
                        into: UnsafeMutableRawBufferPointer(
                            rebasing: UnsafeMutableRawBufferPointer(bytes)[initialized..<count]), deadline: deadline)
                }
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            if bufferStart == bufferEnd { try fill(deadline: deadline) }
            let take = min(count - bytes.count, bufferEnd - bufferStart)
            bytes.append(contentsOf: buffer[bufferStart..<(bufferStart + take)])
            bufferStart += take
        }
        return bytes
    }

    /// Passes exactly `count` bytes to `body` as they arrive, at most a buffer's worth (64 KiB) at
    /// a time: a body of any size (a DUMP's files) reaches its destination without being held whole.
    func receive(
        _ count: Int, deadline: ContinuousClock.Instant, into body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var remaining = count
        while remaining > 0 {
            if bufferStart == bufferEnd { try fill(deadline: deadline) }
            let take = min(remaining, bufferEnd - bufferStart)
            try buffer.withUnsafeBytes { bytes in
                try body(UnsafeRawBufferPointer(rebasing: bytes[bufferStart..<(bufferStart + take)]))
            }
            bufferStart += take
            remaining -= take
        }
    }

    // MARK: - Private

    #if canImport(Glibc)
        private static let streamType = Int32(SOCK_STREAM.rawValue)
    #else
        private static let streamType = SOCK_STREAM
    #endif

    /// Splits "host:port" (or "[v6]:port").
    private static func split(_ address: String) throws -> (String, String) {
        guard let colon = address.lastIndex(of: ":"), let port = UInt16(address[address.index(after: colon)...]) else {
            throw DqliteError(
                code: .misuse, message: "a node address is host:port, not \"\(address)\"", address: address)
        }
        var host = String(address[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (host, String(port))
    }

    /// A non-blocking connect, waited for with `poll`, then back to blocking mode.
    private func connect(_ target: UnsafeMutablePointer<sockaddr>!, _ length: socklen_t, timeout: Duration) throws {
        let flags = fcntl(descriptor, F_GETFL, 0)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        #if canImport(Glibc)
            let result = Glibc.connect(descriptor, target, length)
        #else
            let result = Darwin.connect(descriptor, target, length)
        #endif
        if result != 0 {
            guard errno == EINPROGRESS else { throw Socket.error(.connectionClosed, "connect", address) }
            try wait(for: Int16(POLLOUT), until: .now + timeout)
            var failure: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &size)
            if failure != 0 {
                errno = failure
                throw Socket.error(.connectionClosed, "connect", address)
            }
        }
        _ = fcntl(descriptor, F_SETFL, flags)
    }

    /// Requests go one at a time and are small: send each at once (no Nagle delay).
    private func configure() throws {
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// Refills the empty buffer with what has arrived, waiting for something when nothing has.
    private func fill(deadline: ContinuousClock.Instant) throws {
        bufferStart = 0
        bufferEnd = 0
        bufferEnd = try buffer.withUnsafeMutableBytes { try read(into: $0, deadline: deadline) }
    }

    /// Reads what has arrived into `destination` (at most its size), waiting for something when
    /// nothing has; returns how many bytes were read.
    private func read(into destination: UnsafeMutableRawBufferPointer, deadline: ContinuousClock.Instant) throws -> Int
    {
        while true {
            try checkOpen()
            let read = recv(descriptor, destination.baseAddress!, destination.count, Int32(MSG_DONTWAIT))
            if read > 0 { return read }
            if read == 0 {
                close()
                throw DqliteError(code: .connectionClosed, message: "the node closed the connection", address: address)
            }
            if errno == EAGAIN || errno == EWOULDBLOCK {
                try wait(for: Int16(POLLIN), until: deadline)
            } else if errno != EINTR {
                let failure = Socket.error(.connectionClosed, "receive", address)
                close()
                throw failure
            }
        }
    }

    private func checkOpen() throws {
        guard descriptor >= 0 else {
            throw DqliteError(code: .connectionClosed, message: "the connection is closed", address: address)
        }
    }

    /// Waits until the socket is ready for `events` or the deadline passes (then closes it).
    private func wait(for events: Int16, until deadline: ContinuousClock.Instant) throws {
        try checkOpen()
        while true {
            let remaining = deadline - .now
            let milliseconds = max(
                0,
                Int32(
                    clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds
                        / 1_000_000_000_000_000))
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return }
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 { throw Socket.error(.connectionClosed, "poll", address) }
            close()
            throw DqliteError(code: .timeout, message: "no answer within the timeout", address: address)
        }
    }

    private static func error(_ code: DqliteError.Code, _ call: String, _ address: String) -> DqliteError {
        DqliteError(code: code, message: "\(call): \(String(cString: strerror(errno)))", address: address)
    }
}
