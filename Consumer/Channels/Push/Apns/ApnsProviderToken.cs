using System.Security.Cryptography;
using Microsoft.IdentityModel.JsonWebTokens;
using Microsoft.IdentityModel.Tokens;

namespace Notifications.Consumer.Channels.Push.Apns;

/// <summary>
/// The APNs provider token: a JWT signed ES256 with the .p8 key, header kid, claims iss (team id) and iat only. Apple refuses
/// one older than an hour and one renewed more than once in 20 minutes, so one token serves every handler and is renewed
/// every <see cref="RefreshAfter"/>. Thread-safe and single-flight: of the handlers that find it due at once (every handler at
/// start), one signs and the others wait for its token (an ES256 signature, well under a millisecond, once in 50 minutes);
/// an ECDSA signature is randomized, so two signers would make two tokens with the same iat (issue 27, item 15).
/// </summary>
internal sealed class ApnsProviderToken : IDisposable
{
    /// <summary>How old a token gets before it is replaced: within Apple's 60 minutes, with room for clock skew.</summary>
    public static readonly TimeSpan RefreshAfter = TimeSpan.FromMinutes(50);

    /// <summary>The shortest time between two tokens Apple accepts (TooManyProviderTokenUpdates otherwise).</summary>
    public static readonly TimeSpan MinRenewal = TimeSpan.FromMinutes(20);

    // Exactly the claims given: Apple's tokens carry no exp or nbf.
    private static readonly JsonWebTokenHandler Handler = new() { SetDefaultTimesOnTokenCreation = false };

    private readonly ECDsa _key;
    private readonly SigningCredentials _credentials;
    private readonly string _teamId;
    private readonly TimeProvider _time;
    private readonly Lock _signing = new();
    private Issued? _current;

    public ApnsProviderToken(ApnsOptions options, TimeProvider time)
    {
        _key = TryLoadKey(options.PrivateKeyFile!, out string? error)
            ?? throw new InvalidOperationException($"Push:Apns:PrivateKeyFile '{options.PrivateKeyFile}' cannot be used: {error}");
        _credentials = new SigningCredentials(new ECDsaSecurityKey(_key) { KeyId = options.KeyId }, SecurityAlgorithms.EcdsaSha256);
        _teamId = options.TeamId!;
        _time = time;
    }

    /// <summary>The current token, signed anew when the last one is <see cref="RefreshAfter"/> old.</summary>
    public string Current
    {
        get
        {
            if (Fresh(Volatile.Read(ref _current)) is { } token)
            {
                return token;
            }

            lock (_signing)
            {
                // Another caller may have signed while this one waited: its token is the one.
                if (Fresh(_current) is { } signed)
                {
                    return signed;
                }

                var now = _time.GetUtcNow();
                var issued = new Issued(Sign(now), now);
                Volatile.Write(ref _current, issued);
                return issued.Token;
            }
        }
    }

    /// <summary>
    /// APNs called <paramref name="token"/> expired (a clock ahead of Apple's): the next request gets a new one, unless it already
    /// has, and not within <see cref="MinRenewal"/> of the last (Apple refuses more frequent renewals).
    /// </summary>
    public void Forget(string token)
    {
        var current = Volatile.Read(ref _current);
        if (current?.Token == token && _time.GetUtcNow() - current.At >= MinRenewal)
        {
            Interlocked.CompareExchange(ref _current, null, current);
        }
    }

    /// <summary>Reads a .p8 (PKCS#8 PEM, EC P-256) signing key; null and why when it is not one.</summary>
    public static ECDsa? TryLoadKey(string file, out string? error)
    {
        var key = ECDsa.Create();
        try
        {
            key.ImportFromPem(File.ReadAllText(file));
            error = key.KeySize == 256 ? null : $"it is an EC key of {key.KeySize} bits; APNs keys are P-256";
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or ArgumentException or CryptographicException)
        {
            error = ex.Message;
        }

        if (error is null)
        {
            return key;
        }

        key.Dispose();
        return null;
    }

    public void Dispose() => _key.Dispose();

    private string? Fresh(Issued? current)
    {
        var now = _time.GetUtcNow();
        return current is not null && now - current.At < RefreshAfter && now >= current.At ? current.Token : null;
    }

    private string Sign(DateTimeOffset now) => Handler.CreateToken(new SecurityTokenDescriptor
    {
        Issuer = _teamId,
        // Whole seconds, as Apple's examples: iat is a NumericDate.
        IssuedAt = DateTimeOffset.FromUnixTimeSeconds(now.ToUnixTimeSeconds()).UtcDateTime,
        SigningCredentials = _credentials,
    });

    private sealed record Issued(string Token, DateTimeOffset At);
}
