using System.Buffers;
using BenchmarkDotNet.Attributes;
using Notifications.Consumer.Sending;

namespace Notifications.Benchmarks;

/// <summary>Rendering one email (headers, encoding choice, body) into a reused buffer, as MailTransaction does.</summary>
[MemoryDiagnoser]
public class MimeBenchmarks
{
    private readonly ArrayBufferWriter<byte> _output = new(8192);
    private readonly EmailMessage _ascii = new(123_456, "customer123456@example.com", "Your order #123456 has shipped",
        "Hello,\n\norder 123456 is on its way.\n", false, DateTimeOffset.UnixEpoch.AddYears(55));

    private readonly EmailMessage _unicode = new(123_456, "customer123456@example.com", "Ihre Bestellung #123456 wurde verschickt – danke",
        "Grüße,\n\nIhre Bestellung 123456 ist unterwegs. ✓\n", false, DateTimeOffset.UnixEpoch.AddYears(55));

    [Benchmark(Baseline = true)]
    public int WriteAscii()
    {
        _output.ResetWrittenCount();
        return (int)MimeMessageWriter.Write(_ascii, "notifications@localhost", "notifications.local", allow8Bit: true, _output);
    }

    [Benchmark]
    public int WriteUnicodeQuotedPrintable()
    {
        _output.ResetWrittenCount();
        return (int)MimeMessageWriter.Write(_unicode, "notifications@localhost", "notifications.local", allow8Bit: false, _output);
    }
}
