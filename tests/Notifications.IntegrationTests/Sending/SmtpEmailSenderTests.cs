using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using Notifications.Consumer.Channels.Email;
using Notifications.Consumer.Channels;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Sending;

/// <summary>The MailKit-based sender against a real postfix smtp-sink, checked at the sink's dump.</summary>
[Collection("services")]
public sealed class SmtpEmailSenderTests
{
    // Failure guards only: every wait below ends as soon as its condition holds.
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);
    private static readonly DateTimeOffset CreatedAt = new(2026, 1, 2, 3, 4, 5, 678, TimeSpan.Zero);

    [Fact]
    public async Task SendAsync_ThousandMessagesOverOneSender_EachArrivesExactlyOnce()
    {
        await using SmtpSink sink = await SmtpSink.StartAsync();
        await using (SmtpEmailSender sender = NewSender(sink.Port))
        {
            for (long id = 1; id <= 1000; id++)
            {
                await sender.SendAsync(Message(id), CancellationToken.None);
            }
        }

        await sink.WaitForMessagesAsync(1000, Patience);
        IReadOnlyDictionary<long, int> counts = sink.CountByNotificationId();
        Assert.Equal(Enumerable.Range(1, 1000).Select(i => (long)i), counts.Keys.Order());
        Assert.All(counts, pair => Assert.Equal(1, pair.Value));
    }

    [Fact]
    public async Task SendAsync_NonAsciiSubjectAndDotLines_DumpShowsHeadersAndBodyIntact()
    {
        const string subject = "Grüße aus Köln – your order ✓ has shipped, and this subject is long enough to fold";
        const string body = "Hallo Jürgen,\n.a line that starts with a dot\n..and one with two\n.\nEnde.";
        await using SmtpSink sink = await SmtpSink.StartAsync();
        await using (SmtpEmailSender sender = NewSender(sink.Port))
        {
            await sender.SendAsync(Message(42) with { Subject = subject, Body = body }, CancellationToken.None);
        }

        await sink.WaitForMessagesAsync(1, Patience);
        SinkDump dump = SinkDump.Read(Assert.Single(sink.MessageFiles()));
        Assert.Equal(subject, SinkDump.DecodeEncodedWords(dump.Headers["Subject"]));
        Assert.Equal("user@example.test", dump.Headers["To"]);
        Assert.Equal("notifications@example.test", dump.Headers["From"]);
        Assert.Equal("42", dump.Headers["X-Notification-Id"]);
        Assert.Equal($"<42.{CreatedAt.ToUnixTimeMilliseconds()}@notifications.local>", dump.Headers["Message-ID"]);
        Assert.Equal("Fri, 02 Jan 2026 03:04:05 +0000", dump.Headers["Date"]);
        Assert.Equal("8bit", dump.Headers["Content-Transfer-Encoding"]);
        Assert.Contains("BODY=8BITMIME", dump.Headers["X-Mail-Args"], StringComparison.Ordinal);
        Assert.Equal(body + "\n", dump.Body);
    }

    [Fact]
    public async Task SendAsync_ServerWithout8BitMime_BodyArrivesQuotedPrintable()
    {
        string body = "Grüße, Jürgen = 100 % ✓ \n.dot line\n" + new string('x', 200);
        await using SmtpSink sink = await SmtpSink.StartAsync("-8");
        await using (SmtpEmailSender sender = NewSender(sink.Port))
        {
            await sender.SendAsync(Message(7) with { Body = body }, CancellationToken.None);
        }

        await sink.WaitForMessagesAsync(1, Patience);
        SinkDump dump = SinkDump.Read(Assert.Single(sink.MessageFiles()));
        Assert.Equal("quoted-printable", dump.Headers["Content-Transfer-Encoding"]);
        Assert.DoesNotContain("BODY=8BITMIME", dump.Headers["X-Mail-Args"], StringComparison.Ordinal);
        Assert.All(dump.Body.Split('\n'), line => Assert.True(line.Length <= 76, line));
        Assert.Equal(body + "\n", SinkDump.DecodeQuotedPrintable(dump.Body));
    }

    [Fact]
    public async Task SendAsync_ServerOffersPipelining_SendsMailAndRcptInOneWriteAndQuitsOnDispose()
    {
        await using SmtpSink sink = await SmtpSink.StartAsync();
        await using var proxy = RecordingTcpProxy.Start(sink.Host, sink.Port);
        await using (SmtpEmailSender sender = NewSender(proxy.Port))
        {
            await sender.SendAsync(Message(1), CancellationToken.None);
            await sender.SendAsync(Message(2), CancellationToken.None);
        }

        await sink.WaitForMessagesAsync(2, Patience);
        IReadOnlyList<string> reads = proxy.ClientReads;
        // MailKit pipelines MAIL FROM and RCPT TO; it sends DATA once their replies are in.
        Assert.Equal(2, reads.Count(read => read.StartsWith("MAIL FROM:<notifications@example.test>", StringComparison.Ordinal)
            && read.EndsWith("\r\nRCPT TO:<user@example.test>\r\n", StringComparison.Ordinal)));
        await WaitUntilAsync(() => proxy.ClientReads.LastOrDefault() == "QUIT\r\n");
    }

    [Fact]
    public async Task SendAsync_ServerWithoutPipelining_SendsCommandsOneByOneAndDelivers()
    {
        await using SmtpSink sink = await SmtpSink.StartAsync("-p");
        await using var proxy = RecordingTcpProxy.Start(sink.Host, sink.Port);
        await using (SmtpEmailSender sender = NewSender(proxy.Port))
        {
            await sender.SendAsync(Message(1), CancellationToken.None);
            await sender.SendAsync(Message(2), CancellationToken.None);
        }

        await sink.WaitForMessagesAsync(2, Patience);
        Assert.Equal(2, sink.CountByNotificationId().Count);
        Assert.Equal(2, proxy.ClientReads.Count(read => read.StartsWith("MAIL FROM:<", StringComparison.Ordinal)));
        Assert.DoesNotContain(proxy.ClientReads, read => read.Contains("RCPT TO", StringComparison.Ordinal)
            && !read.StartsWith("RCPT TO", StringComparison.Ordinal));
    }

    [Fact]
    public async Task SendAsync_RcptSoftRejected_ThrowsTransient()
    {
        await using SmtpSink sink = await SmtpSink.StartAsync("-r RCPT");
        await using SmtpEmailSender sender = NewSender(sink.Port);

        SmtpSendException failure = await Assert.ThrowsAsync<SmtpSendException>(
            () => sender.SendAsync(Message(1), CancellationToken.None));

        Assert.Equal(SendFailureKind.Transient, failure.Kind);
        Assert.Equal(450, failure.ReplyCode);
        Assert.Contains("450 4.3.0", failure.Message, StringComparison.Ordinal);
        Assert.Equal(0, sink.MessageCount());
    }

    [Fact]
    public async Task SendAsync_RcptHardRejected_ThrowsPermanentResetsAndKeepsConnection()
    {
        await using SmtpSink sink = await SmtpSink.StartAsync("-f RCPT");
        await using var proxy = RecordingTcpProxy.Start(sink.Host, sink.Port);
        await using (SmtpEmailSender sender = NewSender(proxy.Port))
        {
            foreach (long id in (long[])[1, 2])
            {
                SmtpSendException failure = await Assert.ThrowsAsync<SmtpSendException>(
                    () => sender.SendAsync(Message(id), CancellationToken.None));
                Assert.Equal(SendFailureKind.Permanent, failure.Kind);
                Assert.Equal(500, failure.ReplyCode);
            }
        }

        IReadOnlyList<string> reads = proxy.ClientReads;
        Assert.Single(reads, read => read.StartsWith("EHLO ", StringComparison.Ordinal)); // one connection
        Assert.Equal(2, reads.Count(read => read == "RSET\r\n"));
        Assert.Equal(0, sink.MessageCount());
    }

    [Fact]
    public async Task SendAsync_DisconnectAfterFinalDot_ThrowsUnknownAlthoughSinkHasMessage()
    {
        await using SmtpSink sink = await SmtpSink.StartAsync("-q .");
        await using SmtpEmailSender sender = NewSender(sink.Port);

        SmtpSendException failure = await Assert.ThrowsAsync<SmtpSendException>(
            () => sender.SendAsync(Message(5), CancellationToken.None));

        Assert.Equal(SendFailureKind.Unknown, failure.Kind);
        Assert.Null(failure.ReplyCode);
        await sink.WaitForMessagesAsync(1, Patience); // why resending blindly would duplicate it
    }

    [Fact]
    public async Task SendAsync_ServiceClosingOnMail_ThrowsTransient()
    {
        await using SmtpSink sink = await SmtpSink.StartAsync("-Q MAIL");
        await using SmtpEmailSender sender = NewSender(sink.Port);

        SmtpSendException failure = await Assert.ThrowsAsync<SmtpSendException>(
            () => sender.SendAsync(Message(1), CancellationToken.None));

        Assert.Equal(SendFailureKind.Transient, failure.Kind);
        Assert.Equal(421, failure.ReplyCode);
        Assert.Equal(0, sink.MessageCount());
    }

    [Fact]
    public async Task SendAsync_AfterServiceClosingAndSinkRestart_SameSenderDeliversNextMessageOnce()
    {
        await using SmtpSink sink = await SmtpSink.StartAsync("-Q MAIL");
        await using SmtpEmailSender sender = NewSender(sink.Port);
        await Assert.ThrowsAsync<SmtpSendException>(() => sender.SendAsync(Message(1), CancellationToken.None));

        await sink.RestartAsync();
        await sender.SendAsync(Message(2), CancellationToken.None);

        await sink.WaitForMessagesAsync(1, Patience);
        Assert.Equal(new Dictionary<long, int> { [2] = 1 }, sink.CountByNotificationId());
    }

    [Fact]
    public async Task SendAsync_ServerRestartedWhileIdle_ReconnectsWithoutFailing()
    {
        await using SmtpSink sink = await SmtpSink.StartAsync();
        await using SmtpEmailSender sender = NewSender(sink.Port);
        await sender.SendAsync(Message(1), CancellationToken.None);

        await sink.RestartAsync(); // closes the sender's idle connection
        await sender.SendAsync(Message(2), CancellationToken.None);

        await sink.WaitForMessagesAsync(2, Patience);
        Assert.Equal(new Dictionary<long, int> { [1] = 1, [2] = 1 }, sink.CountByNotificationId());
    }

    [Fact]
    public async Task SendAsync_SessionIdleLongerThanIdleCheckAfter_NoOpThenSameConnection()
    {
        await using SmtpSink sink = await SmtpSink.StartAsync();
        await using var proxy = RecordingTcpProxy.Start(sink.Host, sink.Port);
        SmtpOptions options = Options(proxy.Port);
        options.IdleCheckAfter = TimeSpan.Zero;
        await using (var sender = new SmtpEmailSender(options, NullLogger<SmtpEmailSender>.Instance))
        {
            await sender.SendAsync(Message(1), CancellationToken.None);
            await sender.SendAsync(Message(2), CancellationToken.None);
        }

        await sink.WaitForMessagesAsync(2, Patience);
        Assert.Single(proxy.ClientReads, read => read.StartsWith("EHLO ", StringComparison.Ordinal));
        Assert.Single(proxy.ClientReads, read => read == "NOOP\r\n");
    }

    [Fact]
    public async Task SendAsync_ServerRestartedWhileIdleAndNoOpFails_ReconnectsWithoutFailing()
    {
        await using SmtpSink sink = await SmtpSink.StartAsync();
        SmtpOptions options = Options(sink.Port);
        options.IdleCheckAfter = TimeSpan.Zero;
        await using var sender = new SmtpEmailSender(options, NullLogger<SmtpEmailSender>.Instance);
        await sender.SendAsync(Message(1), CancellationToken.None);

        await sink.RestartAsync();
        await sender.SendAsync(Message(2), CancellationToken.None);

        await sink.WaitForMessagesAsync(2, Patience);
        Assert.Equal(new Dictionary<long, int> { [1] = 1, [2] = 1 }, sink.CountByNotificationId());
    }

    // An idle consumer logged a "ConnectionDropped ... NOOP" warning, with a stack trace, per handler whenever the relay had
    // closed its idle session: routine, so now one Debug line and a count.
    [Fact]
    public async Task SendAsync_IdleSessionClosedByServer_ReconnectsQuietlyAndCountsIt()
    {
        await using SmtpSink sink = await SmtpSink.StartAsync();
        SmtpOptions options = Options(sink.Port);
        options.IdleCheckAfter = TimeSpan.Zero;
        var logger = new LevelCountingLogger();
        int reconnects = 0;
        await using var sender = new SmtpEmailSender(options, logger, () => Interlocked.Increment(ref reconnects));
        await sender.SendAsync(Message(1), CancellationToken.None);

        await sink.RestartAsync();
        await sender.SendAsync(Message(2), CancellationToken.None);

        await sink.WaitForMessagesAsync(2, Patience);
        Assert.Equal(1, reconnects);
        Assert.Equal(0, logger.AtLeast(LogLevel.Warning));
        Assert.Equal(1, logger.AtLeast(LogLevel.Information));   // the first connect only
    }

    [Fact]
    public async Task SendAsync_ReplyToRcptTimesOut_ThrowsTransient()
    {
        // Not MAIL: smtp-sink answers a pipelined RCPT with 503 at once while it holds back its MAIL reply.
        await using SmtpSink sink = await SmtpSink.StartAsync("-W RCPT:10");
        await using SmtpEmailSender sender = NewSender(sink.Port, TimeSpan.FromMilliseconds(300));

        SmtpSendException failure = await Assert.ThrowsAsync<SmtpSendException>(
            () => sender.SendAsync(Message(1), CancellationToken.None));

        Assert.Equal(SendFailureKind.Transient, failure.Kind);
        Assert.IsType<TimeoutException>(failure.InnerException); // MailKit's own per-read timeout (Smtp:CommandTimeout)
    }

    [Fact]
    public async Task SendAsync_ReplyToFinalDotTimesOut_ThrowsUnknown()
    {
        await using SmtpSink sink = await SmtpSink.StartAsync("-W .:10");
        await using SmtpEmailSender sender = NewSender(sink.Port, TimeSpan.FromMilliseconds(300));

        SmtpSendException failure = await Assert.ThrowsAsync<SmtpSendException>(
            () => sender.SendAsync(Message(1), CancellationToken.None));

        Assert.Equal(SendFailureKind.Unknown, failure.Kind);
    }

    [Fact]
    public async Task SendAsync_CallerCancelsBeforeData_ThrowsOperationCanceled()
    {
        await using SmtpSink sink = await SmtpSink.StartAsync("-W RCPT:10");
        await using SmtpEmailSender sender = NewSender(sink.Port);
        using var cancel = new CancellationTokenSource(TimeSpan.FromMilliseconds(300));

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => sender.SendAsync(Message(1), cancel.Token));
    }

    [Fact]
    public async Task SendAsync_CredentialsOverPlainConnection_RefusesBeforeAuth()
    {
        await using SmtpSink sink = await SmtpSink.StartAsync();
        SmtpOptions options = Options(sink.Port);
        (options.Username, options.Password, options.Security) = ("user", "secret", SmtpSecurity.StartTlsWhenAvailable);
        await using var sender = new SmtpEmailSender(options, NullLogger<SmtpEmailSender>.Instance);

        SmtpSendException failure = await Assert.ThrowsAsync<SmtpSendException>(
            () => sender.SendAsync(Message(1), CancellationToken.None));

        Assert.Equal(SendFailureKind.Transient, failure.Kind);
        Assert.Contains("unencrypted", failure.Message, StringComparison.Ordinal);
        Assert.Equal(0, sink.MessageCount());
    }

    [Theory]
    [InlineData("-f EHLO,HELO", typeof(MailKit.Net.Smtp.SmtpCommandException))]
    [InlineData("-f AUTH", typeof(MailKit.Security.AuthenticationException))]
    public async Task SendAsync_FiveHundredBeforeTheTransaction_TransientNotTheMessagesFault(string refuse, Type refused)
    {
        await using SmtpSink sink = await SmtpSink.StartAsync(refuse);
        SmtpOptions options = Options(sink.Port);
        (options.Username, options.Password, options.AllowAuthWithoutTls) = ("user", "secret", true);
        await using var sender = new SmtpEmailSender(options, NullLogger<SmtpEmailSender>.Instance);

        SmtpSendException failure = await Assert.ThrowsAsync<SmtpSendException>(
            () => sender.SendAsync(Message(1), CancellationToken.None));

        Assert.Equal(SendFailureKind.Transient, failure.Kind);
        Assert.IsType(refused, failure.InnerException);
        Assert.Equal(0, sink.MessageCount());
    }

    [Fact]
    public async Task SendAsync_StartTlsRequiredButNotOffered_ThrowsTransientWithoutSending()
    {
        await using SmtpSink sink = await SmtpSink.StartAsync();
        SmtpOptions options = Options(sink.Port);
        options.Security = SmtpSecurity.StartTls;
        await using var sender = new SmtpEmailSender(options, NullLogger<SmtpEmailSender>.Instance);

        SmtpSendException failure = await Assert.ThrowsAsync<SmtpSendException>(
            () => sender.SendAsync(Message(1), CancellationToken.None));

        Assert.Equal(SendFailureKind.Transient, failure.Kind);
        Assert.Contains("STARTTLS", failure.Message, StringComparison.Ordinal);
        Assert.Equal(0, sink.MessageCount());
    }

    private static SmtpEmailSender NewSender(int port, TimeSpan? commandTimeout = null) =>
        new(Options(port, commandTimeout), NullLogger<SmtpEmailSender>.Instance);

    private static SmtpOptions Options(int port, TimeSpan? commandTimeout = null) => new()
    {
        Host = "127.0.0.1",
        Port = port,
        Security = SmtpSecurity.None,
        From = "notifications@example.test",
        CommandTimeout = commandTimeout ?? TimeSpan.FromSeconds(10),
    };

    private static EmailMessage Message(long id) =>
        new(id, "user@example.test", $"Notification {id}", $"Body of notification {id}.\nSecond line.", false, CreatedAt);

    private static async Task WaitUntilAsync(Func<bool> condition)
    {
        using var timeout = new CancellationTokenSource(Patience);
        while (!condition())
        {
            await Task.Delay(20, timeout.Token);
        }
    }

    private sealed class LevelCountingLogger : ILogger<SmtpEmailSender>
    {
        private readonly int[] _counts = new int[7];

        public int AtLeast(LogLevel level) => _counts.Skip((int)level).Take(LogLevel.Critical - level + 1).Sum();

        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => true;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter) =>
            Interlocked.Increment(ref _counts[(int)logLevel]);
    }
}
