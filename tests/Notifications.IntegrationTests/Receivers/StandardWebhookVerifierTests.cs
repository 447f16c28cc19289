using System.Text;
using Notifications.IntegrationTests.Infrastructure.Receivers;

namespace Notifications.IntegrationTests.Receivers;

/// <summary>The verifier against the Standard Webhooks reference libraries' published test vector.</summary>
public sealed class StandardWebhookVerifierTests
{
    // The vector of standard-webhooks/standard-webhooks' libraries (C#, Python, ...): id, timestamp, body, secret -> signature.
    private const string SpecSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private const string SpecId = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    private const long SpecTimestamp = 1614265330;
    private const string SpecSignature = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";
    private static readonly byte[] SpecBody = Encoding.UTF8.GetBytes("{\"test\": 2432232314}");
    private static readonly DateTimeOffset SpecTime = DateTimeOffset.FromUnixTimeSeconds(SpecTimestamp);

    [Fact]
    public void Sign_SpecTestVector_GivesPublishedSignature() =>
        Assert.Equal(SpecSignature, StandardWebhookVerifier.Sign(SpecSecret, SpecId, SpecTimestamp, SpecBody));

    [Fact]
    public void Verify_SpecTestVectorAtItsTime_Verified() =>
        Assert.True(Verify([SpecSecret], SpecSignature, SpecTime).Verified);

    [Fact]
    public void Verify_SecretWithoutPrefix_Verified() =>
        Assert.True(Verify([SpecSecret["whsec_".Length..]], SpecSignature, SpecTime).Verified);

    [Theory]
    [InlineData(301)]
    [InlineData(-301)]
    public void Verify_TimestampOutsideFiveMinutes_Unauthorized(int secondsLater)
    {
        var verdict = Verify([SpecSecret], SpecSignature, SpecTime.AddSeconds(secondsLater));
        Assert.Equal((false, 401), (verdict.Verified, verdict.Status));
        Assert.Contains("tolerance", verdict.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Verify_TimestampFourMinutesOld_Verified() =>
        Assert.True(Verify([SpecSecret], SpecSignature, SpecTime.AddMinutes(4)).Verified);

    [Fact]
    public void Verify_PublishedSignatureAmongOthers_Verified()
    {
        const string Other = "v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=";
        string header = $"{Other} v2,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc= {SpecSignature} {Other}";
        Assert.True(Verify([SpecSecret], header, SpecTime).Verified);
    }

    [Theory]
    [InlineData("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLawdd")]
    [InlineData("v2,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")]
    [InlineData("g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")]
    [InlineData("v1,not-base64")]
    public void Verify_NoMatchingV1Signature_Unauthorized(string header)
    {
        var verdict = Verify([SpecSecret], header, SpecTime);
        Assert.Equal((false, 401), (verdict.Verified, verdict.Status));
    }

    [Fact]
    public void Verify_OtherSecret_Unauthorized() =>
        Assert.False(Verify([WebhookRequests.NewSecret()], SpecSignature, SpecTime).Verified);

    [Fact]
    public void Verify_SpecSecretSecondOfARotation_Verified() =>
        Assert.True(Verify([WebhookRequests.NewSecret(), SpecSecret], SpecSignature, SpecTime).Verified);

    [Theory]
    [InlineData(null, "1614265330", SpecSignature)]
    [InlineData(SpecId, null, SpecSignature)]
    [InlineData(SpecId, "1614265330", null)]
    [InlineData(SpecId, "1614265330.5", SpecSignature)]
    public void Verify_MissingOrMalformedHeader_BadRequest(string? id, string? timestamp, string? signature)
    {
        var verdict = new StandardWebhookVerifier([SpecSecret]).Verify(id, timestamp, signature, SpecBody, SpecTime);
        Assert.Equal((false, 400), (verdict.Verified, verdict.Status));
    }

    [Fact]
    public void Verify_BodyOneByteChanged_Unauthorized()
    {
        byte[] tampered = [.. SpecBody];
        tampered[^2]++;
        var verdict = new StandardWebhookVerifier([SpecSecret]).Verify(SpecId, "1614265330", SpecSignature, tampered, SpecTime);
        Assert.Equal(401, verdict.Status);
    }

    private static WebhookVerdict Verify(string[] secrets, string signatures, DateTimeOffset now) =>
        new StandardWebhookVerifier(secrets).Verify(SpecId, SpecTimestamp.ToString(System.Globalization.CultureInfo.InvariantCulture), signatures, SpecBody, now);
}
