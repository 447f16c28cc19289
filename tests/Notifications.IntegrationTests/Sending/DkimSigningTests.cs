using System.Text.RegularExpressions;
using MimeKit;
using Notifications.Client;
using Notifications.IntegrationTests.Bounces;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Shutdown;

namespace Notifications.IntegrationTests.Sending;

/// <summary>
/// DKIM: a message signed by the consumer verifies as the receiving server has it, also when its envelope sender is the
/// notification's return path (Bounces:Domain); a bad key stops the worker at start.
/// </summary>
[Collection("services")]
public sealed class DkimSigningTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    [Fact]
    public async Task Pipeline_DkimAndBounceDomainConfigured_SignatureVerifiesAndMailFromIsTheNotificationsReturnPath()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        using var key = new DkimTestKey();
        await TestDatabase.EnqueueAsync(new NewNotification("user@example.test", "Grüße aus Köln", "Hallo 😀\nZeile zwei.\n.\nFrom here on")
        {
            Cc = "copy@example.test", ReplyTo = "help@example.test", Headers = new Dictionary<string, string> { ["X-Campaign"] = "spring" },
        });
        await TestDatabase.EnqueueAsync(new NewNotification("plain@example.test", "Plain", "ASCII only.") { IsHtml = true });
        // Bulk mail: RFC 8058 wants List-Unsubscribe and List-Unsubscribe-Post under the signature.
        await TestDatabase.EnqueueAsync(new NewNotification("bulk@example.test", "News", "Monthly.") { Priority = NotificationPriority.Bulk });

        (string, string?)[] settings =
        [
            ("Dkim:Domain", "example.test"), ("Dkim:Selector", "mail2026"), ("Dkim:PrivateKeyFile", key.PrivateKeyFile),
            .. Suppression.SuppressionProbe.UnsubscribeSettings, .. ReturnPathSettings.Settings,
        ];
        await using (await WorkerHost.StartConsumerAsync(broker, sink, settings))
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await sink.WaitForMessagesAsync(3, Patience);
        }

        foreach (string file in sink.MessageFiles())
        {
            using MimeMessage received = SinkDump.LoadMessage(file);
            // The envelope sender names the notification (signed); the From header is Smtp:From's, as without a bounce domain.
            string mailFrom = Regex.Match(received.Headers["X-Mail-Args"]!, "^<([^>]*)>").Groups[1].Value;
            Assert.True(ReturnPathSettings.Codec.TryRead(mailFrom, out long notificationId), $"MAIL FROM <{mailFrom}> is not a return path");
            Assert.Equal(received.Headers["X-Notification-Id"], notificationId.ToString(System.Globalization.CultureInfo.InvariantCulture));
            Assert.Equal(ReturnPathSettings.Codec.For(notificationId), mailFrom);
            Assert.Equal("notifications@localhost", Assert.Single(received.From.Mailboxes).Address);
            string signature = received.Headers[HeaderId.DkimSignature]!;
            Assert.Contains("d=example.test", signature, StringComparison.Ordinal);
            Assert.Contains("s=mail2026", signature, StringComparison.Ordinal);
            Assert.Contains("c=relaxed/relaxed", signature, StringComparison.Ordinal);
            Assert.True(key.Verifies(received), $"the DKIM signature of {file} does not verify");
            if (received.Headers.Contains("List-Unsubscribe"))
            {
                string signed = Regex.Match(Regex.Replace(signature, @"\s+", ""), "(?:^|;)h=([^;]*)").Groups[1].Value;
                var names = signed.Split(':').Select(n => n.Trim().ToLowerInvariant()).ToList();
                Assert.Contains("list-unsubscribe", names);
                Assert.Contains("list-unsubscribe-post", names);
            }

            // The same check can fail: one changed header and the signature no longer holds.
            received.Subject += "!";
            Assert.False(key.Verifies(received));
        }
    }

    [Fact]
    public async Task Consumer_UnreadableDkimKey_ExitsNonZeroNamingTheKeyAndWhy()
    {
        string garbage = Path.GetTempFileName();
        await File.WriteAllTextAsync(garbage, "this is not a PEM key");
        try
        {
            var (exitCode, output) = await WorkerCommandLineTests.RunAsync("Consumer",
                $"--Database:ConnectionString={TestServices.PostgresConnectionString}",
                "--Dkim:Domain=example.test", "--Dkim:Selector=mail2026", $"--Dkim:PrivateKeyFile={garbage}");

            Assert.NotEqual(0, exitCode);
            Assert.Contains("error: invalid configuration:", output, StringComparison.Ordinal);
            Assert.Contains($"Dkim:PrivateKeyFile '{garbage}' cannot be used", output, StringComparison.Ordinal);
        }
        finally
        {
            File.Delete(garbage);
        }
    }

    [Fact]
    public async Task Consumer_MissingDkimKeyFile_ExitsNonZeroNamingTheFile()
    {
        var (exitCode, output) = await WorkerCommandLineTests.RunAsync("Consumer",
            $"--Database:ConnectionString={TestServices.PostgresConnectionString}",
            "--Dkim:Domain=example.test", "--Dkim:Selector=mail2026", "--Dkim:PrivateKeyFile=/run/secrets/no-such-dkim-key");

        Assert.Equal(2, exitCode);
        Assert.Contains("Dkim:PrivateKeyFile '/run/secrets/no-such-dkim-key' cannot be used", output, StringComparison.Ordinal);
    }
}
