using System.Buffers.Binary;
using System.Buffers.Text;
using System.Security.Cryptography;
using System.Text.Json;
using Notifications.Shared.Data;

namespace Notifications.Shared.Unsubscribe;

/// <summary>
/// Makes and reads the opaque token of an unsubscribe link: <c>base64url(version ‖ key fingerprint ‖ salt ‖ AES-256-GCM
/// ciphertext ‖ tag)</c>. The payload (<see cref="UnsubscribePayload"/>) is encrypted, so the URL shows neither the address
/// nor the notification, and authenticated, so it cannot be made or altered without a key of the ring. Each token has its
/// own AES key, derived from the ring key and its 128-bit random salt (HKDF-SHA256): the GCM nonce limit of one key
/// (2^32 random nonces) does not bound how many tokens a ring key makes. The version, fingerprint and salt are
/// authenticated too (associated data). Docs: docs/suppression.md, "The token".
/// </summary>
public sealed class UnsubscribeToken
{
    private const byte Version = 1;
    private const int FingerprintBytes = 4;
    private const int SaltBytes = 16;
    private const int HeaderBytes = 1 + FingerprintBytes + SaltBytes;
    private const int TagBytes = 16;

    /// <summary>The longest token read (characters); a real one is about 130.</summary>
    public const int MaxLength = 1024;

    private static readonly byte[] SubkeyInfo = "notifications unsubscribe token v1"u8.ToArray();
    private static readonly byte[] Nonce = new byte[12];   // zero: every token has a key of its own, used once
    private readonly UnsubscribeKeyRing _ring;
    private readonly TimeProvider _time;
    private readonly TimeSpan _lifetime;

    /// <summary>A token maker and reader over the keys of <paramref name="options"/> (validated).</summary>
    public UnsubscribeToken(UnsubscribeKeyOptions options, TimeProvider time)
    {
        ArgumentNullException.ThrowIfNull(options);
        _ring = new UnsubscribeKeyRing(options);
        _time = time;
        _lifetime = options.TokenLifetime;
    }

    /// <summary>Whether the ring holds a key to make tokens with.</summary>
    public bool CanCreate => _ring.Current is not null;

    /// <summary>A new token for <paramref name="payload"/> (its address lower-cased), made with the current key.</summary>
    public string Create(UnsubscribePayload payload)
    {
        ArgumentNullException.ThrowIfNull(payload);
        var (fingerprint, key) = _ring.Current ?? throw new InvalidOperationException("Unsubscribe:Keys holds no key to make tokens with");
        byte[] plaintext = JsonSerializer.SerializeToUtf8Bytes(new UnsubscribeTokenBody
        {
            NotificationId = payload.NotificationId,
            Address = SuppressionKeys.ForRecipient(payload.Address),
            IssuedAtUnixSeconds = payload.IssuedAt.ToUnixTimeSeconds(),
            Category = payload.Category,
        }, UnsubscribeTokenJsonContext.Default.UnsubscribeTokenBody);

        Span<byte> token = stackalloc byte[HeaderBytes + plaintext.Length + TagBytes];
        token[0] = Version;
        BinaryPrimitives.WriteUInt32BigEndian(token.Slice(1, FingerprintBytes), fingerprint);
        var header = token[..HeaderBytes];
        RandomNumberGenerator.Fill(header[(1 + FingerprintBytes)..]);
        using var aes = TokenCipher(key, header);
        aes.Encrypt(Nonce, plaintext, token.Slice(HeaderBytes, plaintext.Length), token[^TagBytes..], header);
        return Base64Url.EncodeToString(token);
    }

    /// <summary>Reads and verifies <paramref name="token"/>: the outcome, and the payload when genuine.</summary>
    public UnsubscribeTokenCheck Read(string? token)
    {
        if (token is not { Length: > 0 and <= MaxLength } || !Base64Url.IsValid(token, out int length) || length <= HeaderBytes + TagBytes)
        {
            return UnsubscribeTokenCheck.Malformed;
        }

        byte[] bytes = Base64Url.DecodeFromChars(token);
        if (bytes[0] != Version)
        {
            return UnsubscribeTokenCheck.Malformed;
        }

        if (!_ring.TryGet(BinaryPrimitives.ReadUInt32BigEndian(bytes.AsSpan(1, FingerprintBytes)), out byte[] key))
        {
            return new UnsubscribeTokenCheck(UnsubscribeTokenOutcome.UnknownKey, null);
        }

        var header = bytes.AsSpan(0, HeaderBytes);
        byte[] plaintext = new byte[bytes.Length - HeaderBytes - TagBytes];
        try
        {
            using var aes = TokenCipher(key, header);
            aes.Decrypt(Nonce, bytes.AsSpan(HeaderBytes, plaintext.Length), bytes.AsSpan(bytes.Length - TagBytes), plaintext, header);
        }
        catch (AuthenticationTagMismatchException)
        {
            return new UnsubscribeTokenCheck(UnsubscribeTokenOutcome.Forged, null);
        }

        return Check(plaintext);
    }

    private UnsubscribeTokenCheck Check(byte[] plaintext)
    {
        UnsubscribeTokenBody? body;
        try
        {
            body = JsonSerializer.Deserialize(plaintext, UnsubscribeTokenJsonContext.Default.UnsubscribeTokenBody);
        }
        catch (JsonException)
        {
            return UnsubscribeTokenCheck.Malformed;
        }

        if (body is not { Address.Length: > 0 })
        {
            return UnsubscribeTokenCheck.Malformed;
        }

        var payload = new UnsubscribePayload(body.NotificationId, body.Address, DateTimeOffset.FromUnixTimeSeconds(body.IssuedAtUnixSeconds)) { Category = body.Category };
        var outcome = _time.GetUtcNow() - payload.IssuedAt > _lifetime ? UnsubscribeTokenOutcome.Expired : UnsubscribeTokenOutcome.Valid;
        return new UnsubscribeTokenCheck(outcome, payload);
    }

    // The token's own AES-256-GCM key: HKDF-Expand(ring key, info ‖ salt), the salt being the header's last 16 bytes.
    private static AesGcm TokenCipher(byte[] ringKey, ReadOnlySpan<byte> header)
    {
        Span<byte> info = stackalloc byte[SubkeyInfo.Length + SaltBytes];
        SubkeyInfo.CopyTo(info);
        header[(1 + FingerprintBytes)..].CopyTo(info[SubkeyInfo.Length..]);
        Span<byte> subkey = stackalloc byte[UnsubscribeKeyOptions.KeyBytes];
        HKDF.Expand(HashAlgorithmName.SHA256, ringKey, subkey, info);
        return new AesGcm(subkey, TagBytes);
    }
}
