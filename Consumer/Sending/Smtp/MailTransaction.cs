using System.Buffers;
using System.Runtime.CompilerServices;
using System.Text;
using Notifications.Consumer.Sending.Mime;

namespace Notifications.Consumer.Sending.Smtp;

/// <summary>
/// One message's MAIL FROM / RCPT TO / DATA exchange on an open session. With PIPELINING the three
/// commands go out in one write and their replies are read after it (RFC 2920); the message follows
/// the 354 in one write. The buffers are kept for the next message: no per-message allocation but replies.
/// </summary>
internal sealed class MailTransaction(string from, string messageIdDomain)
{
    // A buffer grown past this by one huge message is dropped afterwards rather than kept for good.
    private const int RetainedBufferBytes = 1024 * 1024;

    private readonly ArrayBufferWriter<byte> envelope = new(512);
    private ArrayBufferWriter<byte> content = new(8192);
    private ArrayBufferWriter<byte>? stuffed;
    private int mailLength;
    private int rcptLength;

    /// <summary>The step that failed or was running: names it in errors.</summary>
    public string Step { get; private set; } = "";

    /// <summary>Whether the final "." went out: from then on a lost reply leaves the outcome unknown.</summary>
    public bool TerminatorWritten { get; private set; }

    /// <summary>Whether the transaction stopped in the envelope, so the server needs an RSET.</summary>
    public bool NeedsReset { get; private set; }

    /// <summary>
    /// Runs the transaction; returns null when the server accepted the message, else the reply that
    /// refused it. I/O errors and timeouts propagate.
    /// </summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    public async ValueTask<SmtpReply?> RunAsync(
        SmtpConnection connection, SmtpExtensions extensions, EmailMessage message, CancellationToken cancellationToken)
    {
        (Step, TerminatorWritten, NeedsReset) = ("MAIL FROM", false, false);
        ReadOnlyMemory<byte> data = Prepare(extensions, message);
        SmtpReply? refusal = extensions.Pipelining
            ? await SendEnvelopePipelinedAsync(connection, cancellationToken)
            : await SendEnvelopeStepwiseAsync(connection, cancellationToken);
        if (refusal is not null)
        {
            NeedsReset = true;
            return refusal;
        }

        Step = "end of data";
        await connection.WriteAsync(data, cancellationToken);
        TerminatorWritten = true;
        SmtpReply reply = await connection.ReadReplyAsync(keepText: false, cancellationToken);
        return reply.Code is >= 200 and < 300 ? null : reply;
    }

    /// <summary>Lets go of buffers a huge message grew.</summary>
    public void TrimBuffers()
    {
        if (content.Capacity > RetainedBufferBytes)
        {
            content = new ArrayBufferWriter<byte>(8192);
        }

        if (stuffed?.Capacity > RetainedBufferBytes)
        {
            stuffed = null;
        }
    }

    private ReadOnlyMemory<byte> Prepare(SmtpExtensions extensions, EmailMessage message)
    {
        bool needsUtf8 = !Ascii.IsValid(message.To) || !Ascii.IsValid(from);
        if (needsUtf8 && !extensions.SmtpUtf8)
        {
            throw new SmtpSendException(
                SmtpFailureKind.Permanent, null, "A non-ASCII address needs SMTPUTF8, which the server does not offer.");
        }

        content.ResetWrittenCount();
        ContentTransferEncoding encoding =
            MimeMessageWriter.Write(message, from, messageIdDomain, extensions.EightBitMime, content);
        if (extensions.MaxSize is long max && content.WrittenCount > max)
        {
            throw new SmtpSendException(SmtpFailureKind.Permanent, null,
                $"The message is {content.WrittenCount} bytes; the server's SIZE limit is {max}.");
        }

        WriteEnvelope(message.To, encoding, needsUtf8, extensions.MaxSize is not null ? content.WrittenCount : null);
        ArrayBufferWriter<byte> data = content;
        if (DotStuffing.IsNeeded(content.WrittenSpan))
        {
            stuffed ??= new ArrayBufferWriter<byte>(content.WrittenCount + 64);
            stuffed.ResetWrittenCount();
            DotStuffing.Write(content.WrittenSpan, stuffed);
            data = stuffed;
        }

        data.Write(DotStuffing.Terminator);
        return data.WrittenMemory;
    }

    private void WriteEnvelope(string to, ContentTransferEncoding encoding, bool smtpUtf8, int? size)
    {
        envelope.ResetWrittenCount();
        var writer = new ByteWriter(envelope);
        writer.Write("MAIL FROM:<"u8);
        writer.Write(from);
        writer.Write(">"u8);
        if (encoding == ContentTransferEncoding.EightBit)
        {
            writer.Write(" BODY=8BITMIME"u8); // RFC 6152: 8-bit content must be declared
        }

        if (smtpUtf8)
        {
            writer.Write(" SMTPUTF8"u8);
        }

        if (size is int bytes)
        {
            writer.Write(" SIZE="u8); // RFC 1870: lets the server refuse before the data is sent
            writer.Write(bytes);
        }

        writer.Write("\r\n"u8);
        writer.Flush();
        mailLength = envelope.WrittenCount;
        writer.Write("RCPT TO:<"u8);
        writer.Write(to);
        writer.Write(">\r\n"u8);
        writer.Flush();
        rcptLength = envelope.WrittenCount - mailLength;
        envelope.Write("DATA\r\n"u8);
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<SmtpReply?> SendEnvelopePipelinedAsync(SmtpConnection connection, CancellationToken cancellationToken)
    {
        await connection.WriteAsync(envelope.WrittenMemory, cancellationToken);
        SmtpReply mail = await connection.ReadReplyAsync(keepText: false, cancellationToken);
        if (mail.IsServiceClosing)
        {
            return mail; // the server hangs up: no more replies will come
        }

        Step = "RCPT TO";
        SmtpReply rcpt = await connection.ReadReplyAsync(keepText: false, cancellationToken);
        if (rcpt.IsServiceClosing)
        {
            return rcpt;
        }

        Step = "DATA";
        SmtpReply data = await connection.ReadReplyAsync(keepText: false, cancellationToken);
        bool envelopeOk = mail.Code is >= 200 and < 300 && rcpt.Code is >= 200 and < 300;
        if (envelopeOk && data.Code == 354)
        {
            return null;
        }

        if (data.Code == 354)
        {
            // RFC 2920 3.1: a server may accept DATA although the envelope failed; end it with no content.
            await connection.WriteAsync(DotStuffing.Terminator.ToArray(), cancellationToken);
            await connection.ReadReplyAsync(keepText: false, cancellationToken);
        }

        (Step, SmtpReply refusal) = mail.Code is < 200 or >= 300 ? ("MAIL FROM", mail)
            : rcpt.Code is < 200 or >= 300 ? ("RCPT TO", rcpt)
            : ("DATA", data);
        return refusal;
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<SmtpReply?> SendEnvelopeStepwiseAsync(SmtpConnection connection, CancellationToken cancellationToken)
    {
        ReadOnlyMemory<byte> commands = envelope.WrittenMemory;
        SmtpReply reply = await CommandAsync(connection, commands[..mailLength], cancellationToken);
        if (reply.Code is < 200 or >= 300)
        {
            return reply;
        }

        Step = "RCPT TO";
        reply = await CommandAsync(connection, commands.Slice(mailLength, rcptLength), cancellationToken);
        if (reply.Code is < 200 or >= 300)
        {
            return reply;
        }

        Step = "DATA";
        reply = await CommandAsync(connection, commands[(mailLength + rcptLength)..], cancellationToken);
        return reply.Code == 354 ? null : reply;
    }

    private static async ValueTask<SmtpReply> CommandAsync(
        SmtpConnection connection, ReadOnlyMemory<byte> command, CancellationToken cancellationToken)
    {
        await connection.WriteAsync(command, cancellationToken);
        return await connection.ReadReplyAsync(keepText: false, cancellationToken);
    }
}
