using System.Text.Json;
using Notifications.Consumer.Channels.Webhook;

namespace Notifications.UnitTests.Webhooks;

/// <summary>The signature and body as the Standard Webhooks specification writes them.</summary>
public sealed class WebhookSignerTests
{
    // The specification's test vector (standard-webhooks, spec and reference libraries).
    private const string SpecSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private const string SpecId = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    private const string SpecBody = """{"test": 2432232314}""";
    private const string SpecSignature = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";
    private static readonly DateTimeOffset SpecTimestamp = DateTimeOffset.FromUnixTimeSeconds(1614265330);

    [Fact]
    public void Sign_SpecTestVector_SpecSignature()
    {
        Assert.Equal(SpecSignature, new WebhookSigner().Sign([SpecSecret], SpecId, SpecTimestamp, SpecBody));
    }

    [Fact]
    public void Sign_TwoSecretsDuringRotation_SpaceSeparatedOnePerSecret()
    {
        const string other = "whsec_dGhpcyBpcyBhbm90aGVyIHNlY3JldCBrZXkh";
        var signer = new WebhookSigner();

        string both = signer.Sign([other, SpecSecret], SpecId, SpecTimestamp, SpecBody);

        var parts = both.Split(' ');
        Assert.Equal(2, parts.Length);
        Assert.Equal(signer.Sign([other], SpecId, SpecTimestamp, SpecBody), parts[0]);
        Assert.Equal(SpecSignature, parts[1]);
    }

    [Fact]
    public void Build_DataAsWritten_NotReserialized()
    {
        const string data = """{"b": 1,  "a": "caf\u00e9", "n": 1.50}""";
        var occurred = new DateTimeOffset(2026, 11, 25, 15, 30, 0, 123, TimeSpan.FromHours(1));

        string body = WebhookPayload.Build("invoice.paid", occurred, data);

        Assert.Equal("""{"type":"invoice.paid","timestamp":"2026-11-25T14:30:00.123Z","data":""" + data + "}", body);
        using var parsed = JsonDocument.Parse(body);
        Assert.Equal(data, parsed.RootElement.GetProperty("data").GetRawText());
    }
}
