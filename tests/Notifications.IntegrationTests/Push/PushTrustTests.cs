using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Push;

/// <summary>
/// The push clients' TLS trust has the webhook clients' name and meaning: <c>Push:TrustedCertificatesFile</c>, a PEM of roots
/// trusted besides the system's. The old <c>Push:TrustedCertificateFile</c> still works, with a deprecation warning at start.
/// </summary>
[Collection("services")]
public sealed class PushTrustTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    [Fact]
    public async Task TrustedCertificatesFile_TheServersCertificate_PushDeliveredOverTls()
    {
        await using var world = await PushWorld.StartAsync();
        var (id, _) = await world.InsertAsync(PushWorld.Recipient("fcm", PushWorld.NewFcmToken()));

        await using (await world.StartConsumerAsync(_ => { }, ("Push:TrustedCertificatesFile", world.ServerCertificateFile())))
        await using (await world.StartProducerAsync())
        {
            Assert.Equal("sent", await SettledAsync(id));
        }
    }

    [Fact]
    public async Task OldKeyTrustedCertificateFile_StillTrusted_DeprecationWarningNamesTheNewKey()
    {
        await using var world = await PushWorld.StartAsync();
        var (id, _) = await world.InsertAsync(PushWorld.Recipient("fcm", PushWorld.NewFcmToken()));
        var logs = new RecordingLoggerProvider();

        await using (await world.StartConsumerAsync(logs.Install, ("Push:TrustedCertificatesFile", null), ("Push:TrustedCertificateFile", world.ServerCertificateFile())))
        await using (await world.StartProducerAsync())
        {
            Assert.Equal("sent", await SettledAsync(id));
        }

        Assert.Single(logs.Lines, line => line.StartsWith("Warning", StringComparison.Ordinal)
            && line.Contains("Push:TrustedCertificateFile", StringComparison.Ordinal) && line.Contains("Push:TrustedCertificatesFile", StringComparison.Ordinal));
    }

    // "sent", or the dead letter's reason (an untrusted certificate is retried, then dead-lettered).
    private static async Task<string> SettledAsync(long id) =>
        await Eventually.WaitAsync(async () => await PushWorld.LogStatusAsync(id) ?? await PushWorld.DeadLetterReasonAsync(id), s => s is not null, Patience, "sent or dead-lettered")
        ?? "";
}
