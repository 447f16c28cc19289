using System.Security.Cryptography;
using Microsoft.IdentityModel.JsonWebTokens;
using Microsoft.IdentityModel.Tokens;
using Notifications.Consumer.Channels.Push.Apns;
using Notifications.UnitTests.Consumer;

namespace Notifications.UnitTests.Push;

/// <summary>The APNs provider token: ES256 with kid, iss and iat only; one token for 50 minutes, then a new one.</summary>
public sealed class ApnsProviderTokenTests : IDisposable
{
    private readonly ECDsa key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
    private readonly string file = Path.GetTempFileName();

    public ApnsProviderTokenTests() => File.WriteAllText(file, key.ExportPkcs8PrivateKeyPem());

    [Fact]
    public async Task Current_Fresh_Es256WithKidIssAndIatOnly()
    {
        var time = new ManualTime(new DateTimeOffset(2026, 11, 25, 12, 0, 0, TimeSpan.Zero));
        using var token = new ApnsProviderToken(Options(), time);

        var jwt = new JsonWebToken(token.Current);

        Assert.Equal(("ES256", "KEY1234567", "TEAM123456"), (jwt.Alg, jwt.Kid, jwt.Issuer));
        Assert.Equal(time.GetUtcNow().UtcDateTime, jwt.IssuedAt);
        Assert.False(jwt.TryGetPayloadValue<long>("exp", out _));
        var result = await new JsonWebTokenHandler().ValidateTokenAsync(token.Current, new TokenValidationParameters
        {
            ValidIssuer = "TEAM123456", ValidateAudience = false, ValidateLifetime = false, RequireExpirationTime = false,
            IssuerSigningKey = new ECDsaSecurityKey(ECDsa.Create(key.ExportParameters(false))),
        });
        Assert.True(result.IsValid, result.Exception?.Message);
    }

    [Fact]
    public void Current_Within50Minutes_SameTokenThenRenewed()
    {
        var time = new ManualTime(new DateTimeOffset(2026, 11, 25, 12, 0, 0, TimeSpan.Zero));
        using var token = new ApnsProviderToken(Options(), time);
        string first = token.Current;

        time.Advance(TimeSpan.FromMinutes(49));
        string later = token.Current;
        time.Advance(TimeSpan.FromMinutes(1));
        string renewed = token.Current;

        Assert.Equal(first, later);
        Assert.NotEqual(first, renewed);
        Assert.Equal(time.GetUtcNow().UtcDateTime, new JsonWebToken(renewed).IssuedAt);
    }

    [Fact]
    public void Current_ManyCallersAtStartAndAtRenewal_OneTokenEachTime()
    {
        var time = new ManualTime(new DateTimeOffset(2026, 11, 25, 12, 0, 0, TimeSpan.Zero));
        using var token = new ApnsProviderToken(Options(), time);

        var first = AllAtOnce(token);
        time.Advance(ApnsProviderToken.RefreshAfter);
        var renewed = AllAtOnce(token);

        Assert.Single(first);
        Assert.Single(renewed);
        Assert.NotEqual(first, renewed);
    }

    [Fact]
    public void Forget_CalledExpired_RenewedOnlyWhen20MinutesOld()
    {
        var time = new ManualTime(new DateTimeOffset(2026, 11, 25, 12, 0, 0, TimeSpan.Zero));
        using var token = new ApnsProviderToken(Options(), time);
        string first = token.Current;

        time.Advance(TimeSpan.FromMinutes(19));
        token.Forget(first);
        string kept = token.Current;
        time.Advance(TimeSpan.FromMinutes(1));
        token.Forget(first);
        string renewed = token.Current;

        Assert.Equal(first, kept);
        Assert.NotEqual(first, renewed);
    }

    // Threads of their own released together, as the handlers of a starting consumer: the distinct tokens they got.
    private static HashSet<string> AllAtOnce(ApnsProviderToken token)
    {
        const int Callers = 12;
        var got = new string[Callers];
        using var start = new Barrier(Callers);
        var threads = Enumerable.Range(0, Callers).Select(i => new Thread(() =>
        {
            start.SignalAndWait();
            got[i] = token.Current;
        })).ToList();
        threads.ForEach(t => t.Start());
        threads.ForEach(t => t.Join());
        return got.ToHashSet(StringComparer.Ordinal);
    }

    [Fact]
    public void TryLoadKey_NotAKey_NullWithWhy()
    {
        File.WriteAllText(file, "not a key");

        Assert.Null(ApnsProviderToken.TryLoadKey(file, out string? error));
        Assert.False(string.IsNullOrEmpty(error));
    }

    public void Dispose()
    {
        key.Dispose();
        File.Delete(file);
    }

    private ApnsOptions Options() => new() { KeyId = "KEY1234567", TeamId = "TEAM123456", PrivateKeyFile = file, Topic = "com.example.app" };
}
