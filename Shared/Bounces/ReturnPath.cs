using System.Globalization;
using System.Security.Cryptography;
using System.Text;

namespace Notifications.Shared.Bounces;

/// <summary>
/// The VERP codec: <c>&lt;prefix&gt;+&lt;id&gt;.&lt;key id&gt;&lt;mac&gt;@&lt;domain&gt;</c>, where id is the notification id in
/// decimal and mac the first 80 bits of HMAC-SHA256(key, "return-path\n" ‖ id) in lowercase base32 (16 characters). Everything
/// is lowercase letters and digits, so an MTA that lowercases the local part changes nothing; the longest address's local part
/// is 8 + 1 + 19 + 1 + 8 + 16 = 53 characters (RFC 5321 allows 64). Built from validated options (<see cref="ReturnPathOptionsValidator"/>).
/// </summary>
public sealed class ReturnPath
{
    /// <summary>The length of the mac in the address: 16 base32 characters, 80 bits.</summary>
    public const int MacChars = 16;

    private const string Base32 = "abcdefghijklmnopqrstuvwxyz234567";
    private static readonly byte[] Purpose = "return-path\n"u8.ToArray();
    private readonly string _domain;
    private readonly string _prefix;
    private readonly (string Id, byte[] Secret) _signing;
    private readonly Dictionary<string, byte[]> _keys = new(StringComparer.Ordinal);

    /// <summary>Decodes the keys of <paramref name="options"/>; throws when they were not validated.</summary>
    public ReturnPath(ReturnPathOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        if (!options.IsConfigured || options.Keys.Count == 0)
        {
            throw new InvalidOperationException("Bounces:Domain and at least one key (Bounces:Keys:0:Id, Bounces:Keys:0:Secret) are needed for return paths");
        }

        _domain = options.Domain.Trim().ToLowerInvariant();
        _prefix = options.LocalPrefix.ToLowerInvariant() + "+";
        foreach (var key in options.Keys)
        {
            byte[] secret = TryDecodeSecret(key.Secret) ?? throw new InvalidOperationException($"Bounces:Keys '{key.Id}' has no valid secret");
            _keys.Add(key.Id, secret);
        }

        _signing = (options.Keys[0].Id, _keys[options.Keys[0].Id]);
    }

    /// <summary>The envelope sender for <paramref name="notificationId"/>, signed with the first key.</summary>
    public string For(long notificationId)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(notificationId);
        string id = notificationId.ToString(CultureInfo.InvariantCulture);
        return $"{_prefix}{id}.{_signing.Id}{Mac(_signing.Secret, id)}@{_domain}";
    }

    /// <summary>
    /// The notification id an address was made for; false for another domain or prefix, a malformed address, an unknown key
    /// id or a wrong mac (compared in constant time). Angle brackets and case are ignored.
    /// </summary>
    public bool TryRead(string? address, out long notificationId)
    {
        notificationId = 0;
        string text = (address ?? "").Trim().TrimStart('<').TrimEnd('>').ToLowerInvariant();
        int at = text.LastIndexOf('@');
        if (at < 0 || !text.AsSpan(at + 1).SequenceEqual(_domain) || !text.StartsWith(_prefix, StringComparison.Ordinal))
        {
            return false;
        }

        string local = text[_prefix.Length..at];
        int dot = local.IndexOf('.', StringComparison.Ordinal);
        if (dot <= 0 || local.Length - dot - 1 <= MacChars
            || !long.TryParse(local.AsSpan(0, dot), NumberStyles.None, CultureInfo.InvariantCulture, out long id)
            || id <= 0 || local[0] == '0'
            || !_keys.TryGetValue(local[(dot + 1)..^MacChars], out byte[]? secret))
        {
            return false;
        }

        if (!CryptographicOperations.FixedTimeEquals(Encoding.ASCII.GetBytes(Mac(secret, local[..dot])), Encoding.ASCII.GetBytes(local[^MacChars..])))
        {
            return false;
        }

        notificationId = id;
        return true;
    }

    /// <summary>The secret's bytes, or null unless <paramref name="value"/> is base64 of at least 32 bytes.</summary>
    public static byte[]? TryDecodeSecret(string? value)
    {
        try
        {
            byte[] bytes = Convert.FromBase64String(value?.Trim() ?? "");
            return bytes.Length >= ReturnPathOptionsValidator.MinSecretBytes ? bytes : null;
        }
        catch (FormatException)
        {
            return null;
        }
    }

    private static string Mac(byte[] secret, string id)
    {
        Span<byte> hash = stackalloc byte[32];
        HMACSHA256.HashData(secret, [.. Purpose, .. Encoding.ASCII.GetBytes(id)], hash);
        // 16 characters of 5 bits: the first 80 bits of the hash, most significant first.
        Span<char> mac = stackalloc char[MacChars];
        for (int i = 0; i < MacChars; i++)
        {
            int bit = i * 5, value = (hash[bit / 8] << 8 | hash[(bit / 8) + 1]) >> (11 - (bit % 8)) & 31;
            mac[i] = Base32[value];
        }

        return new string(mac);
    }
}
