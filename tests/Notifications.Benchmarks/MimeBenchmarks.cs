using BenchmarkDotNet.Attributes;
using MimeKit;
using Notifications.Consumer.Sending;

namespace Notifications.Benchmarks;

/// <summary>
/// Building one email as a MimeMessage and writing it the way MailKit's SmtpClient does (encoding chosen
/// for an 8BITMIME or a 7-bit server, CRLF line ends) into a reused buffer: the client's per-message MIME cost.
/// </summary>
[MemoryDiagnoser]
public class MimeBenchmarks
{
    private static readonly FormatOptions Wire = new() { NewLineFormat = NewLineFormat.Dos, EnsureNewLine = true };
    private readonly MemoryStream _output = new(8192);
    private readonly MimeMessageBuilder _builder = new("notifications@localhost", "notifications.local");
    private readonly MailboxAddress _to = new(string.Empty, "customer123456@example.com");
    private readonly EmailMessage _ascii = new(123_456, "customer123456@example.com", "Your order #123456 has shipped",
        "Hello,\n\norder 123456 is on its way.\n", false, DateTimeOffset.UnixEpoch.AddYears(55));

    private readonly EmailMessage _unicode = new(123_456, "customer123456@example.com", "Ihre Bestellung #123456 wurde verschickt – danke",
        "Grüße,\n\nIhre Bestellung 123456 ist unterwegs. ✓\n", false, DateTimeOffset.UnixEpoch.AddYears(55));

    // A subject MimeKit's encoder would spoil (a literal encoded-word), so it is encoded whole: the rare path.
    private readonly EmailMessage _literalEncodedWord = new(123_456, "customer123456@example.com", "Literal =?utf-8?B?SGk=?= text",
        "Hello,\n\norder 123456 is on its way.\n", false, DateTimeOffset.UnixEpoch.AddYears(55));

    // Disposed as the sender does: an undisposed MimeMessage is finalized, which costs more than building it.
    [Benchmark]
    public int BuildAscii()
    {
        using MimeMessage message = _builder.Build(_ascii, _to);
        return message.Headers.Count;
    }

    [Benchmark(Baseline = true)]
    public long WriteAscii() => Write(_ascii, EncodingConstraint.EightBit);

    [Benchmark]
    public long WriteUnicode8Bit() => Write(_unicode, EncodingConstraint.EightBit);

    [Benchmark]
    public long WriteUnicodeQuotedPrintable() => Write(_unicode, EncodingConstraint.SevenBit);

    [Benchmark]
    public long WriteSubjectEncodedWhole() => Write(_literalEncodedWord, EncodingConstraint.EightBit);

    private long Write(EmailMessage email, EncodingConstraint constraint)
    {
        using MimeMessage message = _builder.Build(email, _to);
        message.Prepare(constraint, 998);
        _output.SetLength(0);
        message.WriteTo(Wire, _output);
        return _output.Length;
    }
}
