using MailKit.Net.Smtp;
using System.Security.Cryptography.X509Certificates;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Infrastructure.Receivers;
using Notifications.IntegrationTests.Suppression;
using Notifications.UnitTests.Bounces;

namespace Notifications.IntegrationTests.Bounces;

/// <summary>
/// The bounce receiver in the test process, connected as its database role, taking DSN and ARF samples of the corpus over
/// real SMTP (MailKit's client, or a raw socket) and writing to the real PostgreSQL: a hard bounce suppresses the address,
/// records the outcome once and turns the notification's status to bounced; a complaint suppresses as complaint; a forged
/// return path, a truncated body, another domain and a 10 MB message change nothing, and the receiver serves the next.
/// </summary>
[Collection("services")]
public sealed class BounceReceiverTests
{
    private static readonly TimeSpan Guard = TimeSpan.FromSeconds(30);

    [Fact]
    public async Task Receive_HardBounceOfASentNotification_SuppressedRecordedOnceAndStatusBounced()
    {
        var database = await TestDatabase.CleanAsync();
        long id = await BounceProbe.SentAsync(database, minutesAgo: 2);
        Assert.Equal("sent", (await BounceProbe.StatusAsync(id)).State);
        await using var receiver = await WorkerHost.StartBouncesAsync(BounceProbe.Settings);
        var endpoint = await BounceProbe.EndpointAsync(receiver);

        byte[] dsn = BounceCorpus.Read("postfix-user-unknown.eml", id);
        await BounceProbe.SendAsync(endpoint, dsn, BounceCorpus.Codec.For(id));
        await BounceProbe.SendAsync(endpoint, dsn, BounceCorpus.Codec.For(id));

        var row = Assert.Single(await SuppressionProbe.RowsAsync());
        Assert.Equal(("nobody@example.net", "hard_bounce", "all", false), (row.Address, row.Reason, row.Scope, row.Removed));
        Assert.Contains($"notification {id}", row.Detail, StringComparison.Ordinal);
        Assert.Equal([("bounced", "nobody@example.net", "5.1.1")], await BounceProbe.OutcomesAsync(id));
        var status = await BounceProbe.StatusAsync(id);
        Assert.Equal("bounced", status.State);
        Assert.StartsWith("bounced 2 min after it was accepted: 550 5.1.1 <nobody@example.net>", status.Detail, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Receive_ComplaintAndSoftBounces_SuppressedAsComplaintAndSoftBounce()
    {
        var database = await TestDatabase.CleanAsync();
        long digest = await BounceProbe.SentAsync(database);
        long first = await BounceProbe.SentAsync(database), second = await BounceProbe.SentAsync(database);
        await using var receiver = await WorkerHost.StartBouncesAsync([.. BounceProbe.Settings, ("Bounces:SoftBounceLimit", "2")]);
        var endpoint = await BounceProbe.EndpointAsync(receiver);

        // Yahoo sends complaints to the address registered for its feedback loop: the returned headers name the notification.
        await BounceProbe.SendAsync(endpoint, BounceCorpus.Read("yahoo-arf.eml", digest), BounceCorpus.FeedbackAddress);
        await BounceProbe.SendAsync(endpoint, BounceCorpus.Read("postfix-delayed.eml", first), BounceCorpus.Codec.For(first));
        Assert.Equal(["complainer@yahoo.com"], (await SuppressionProbe.RowsAsync()).Select(r => r.Address));
        await BounceProbe.SendAsync(endpoint, BounceCorpus.Read("postfix-delayed.eml", second), BounceCorpus.Codec.For(second));

        Assert.Equal(
            [("busy@example.org", "soft_bounce", "all"), ("complainer@yahoo.com", "complaint", "bulk")],
            (await SuppressionProbe.RowsAsync()).Select(r => (r.Address, r.Reason, r.Scope)));
        Assert.Equal("complained", (await BounceProbe.StatusAsync(digest)).State);
        Assert.Equal("sent", (await BounceProbe.StatusAsync(first)).State);
    }

    [Fact]
    public async Task Receive_ForgedMacOrTruncatedBody_NothingChangesAndTheNextIsServed()
    {
        var database = await TestDatabase.CleanAsync();
        long id = await BounceProbe.SentAsync(database);
        await using var receiver = await WorkerHost.StartBouncesAsync(BounceProbe.Settings);
        var endpoint = await BounceProbe.EndpointAsync(receiver);
        string forged = BounceCorpus.Codec.For(id).Replace($"+{id}.", $"+{id + 1}.", StringComparison.Ordinal);

        await BounceProbe.SendAsync(endpoint, BounceCorpus.Read("postfix-user-unknown.eml", id), forged);
        await BounceProbe.SendAsync(endpoint, BounceCorpus.Read("truncated-dsn.eml", id), BounceCorpus.Codec.For(id));
        await receiver.WaitForLogAsync(7704, Guard);
        Assert.Empty(await SuppressionProbe.RowsAsync());
        Assert.Empty(await BounceProbe.OutcomesAsync(id));
        Assert.Empty(await BounceProbe.OutcomesAsync(id + 1));

        await BounceProbe.SendAsync(endpoint, BounceCorpus.Read("gmail-failure.eml", id), BounceCorpus.Codec.For(id));
        Assert.Equal([("bounced", "nosuchuser@gmail.com", "5.1.1")], await BounceProbe.OutcomesAsync(id));
    }

    [Fact]
    public async Task Receive_OtherDomainOrTenMegabytes_RefusedAndTheNextIsServed()
    {
        var database = await TestDatabase.CleanAsync();
        long id = await BounceProbe.SentAsync(database);
        await using var receiver = await WorkerHost.StartBouncesAsync(BounceProbe.Settings);
        var endpoint = await BounceProbe.EndpointAsync(receiver);

        var refused = await Assert.ThrowsAsync<SmtpCommandException>(() =>
            BounceProbe.SendAsync(endpoint, BounceCorpus.Read("postfix-user-unknown.eml", id), "postmaster@example.org"));
        Assert.Equal((SmtpStatusCode.MailboxUnavailable, SmtpErrorCode.RecipientNotAccepted), (refused.StatusCode, refused.ErrorCode));
        Assert.StartsWith("5.1.1", refused.Message, StringComparison.Ordinal);

        string line = new('x', 998);
        string reply = await BounceProbe.SendRawAsync(endpoint, BounceCorpus.Codec.For(id),
            ["Subject: big", "", .. Enumerable.Repeat(line, 10 * 1024 * 1024 / 1000)]);
        Assert.StartsWith("552", reply, StringComparison.Ordinal);
        await receiver.WaitForLogAsync(7702, Guard);

        await BounceProbe.SendAsync(endpoint, BounceCorpus.Read("exim-failed.eml", id), BounceCorpus.Codec.For(id));
        Assert.Equal([("bounced", "gone@example.co.uk", "5.0.0")], await BounceProbe.OutcomesAsync(id));
        Assert.Empty(await BounceProbe.OutcomesAsync(id + 1));
    }

    [Fact]
    public async Task Receive_OverStartTls_ReportRecorded()
    {
        var database = await TestDatabase.CleanAsync();
        long id = await BounceProbe.SentAsync(database);
        using var certificate = TestCertificate.Create();
        string directory = Directory.CreateTempSubdirectory("bounces-tls").FullName;
        string crt = Path.Combine(directory, "bounces.crt"), key = Path.Combine(directory, "bounces.key");
        await File.WriteAllTextAsync(crt, certificate.Certificate.ExportCertificatePem());
        await File.WriteAllTextAsync(key, certificate.Certificate.GetECDsaPrivateKey()!.ExportPkcs8PrivateKeyPem());
        await using var receiver = await WorkerHost.StartBouncesAsync([.. BounceProbe.Settings, ("Bounces:Certificate", crt), ("Bounces:CertificateKey", key)]);

        bool secure = await BounceProbe.SendAsync(await BounceProbe.EndpointAsync(receiver), BounceCorpus.Read("office365-ndr.eml", id), BounceCorpus.Codec.For(id), certificate.Certificate);

        Assert.True(secure);
        Assert.Equal([("bounced", "missing@contoso.com", "5.1.10")], await BounceProbe.OutcomesAsync(id));
        Directory.Delete(directory, recursive: true);
    }
}
