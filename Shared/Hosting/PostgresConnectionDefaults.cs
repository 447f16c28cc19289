using System.Data.Common;
using Npgsql;

namespace Notifications.Shared.Hosting;

/// <summary>
/// What every PostgreSQL connection of this project sets unless its connection string says otherwise. Npgsql 10 tries GSS
/// session encryption first (GSS Encryption Mode=Prefer) and so loads libgssapi_krb5 at the first connection: images
/// without Kerberos print "Cannot load library libgssapi_krb5.so.2", and a host with the library spends a Kerberos round
/// on each new connection only to fall back. These deployments log in with a password over TLS or a private network,
/// never Kerberos: off. Used by the workers' data source and by <c>notifications-admin migrate</c>.
/// </summary>
internal static class PostgresConnectionDefaults
{
    /// <summary><paramref name="connectionString"/> with GSS Encryption Mode=Disable, unless it sets that mode itself.</summary>
    public static string GssOff(string connectionString)
    {
        if (Sets(connectionString, "GssEncryptionMode", "GssEncMode"))
        {
            return connectionString;
        }

        return new NpgsqlConnectionStringBuilder(connectionString) { GssEncryptionMode = GssEncryptionMode.Disable }.ConnectionString;
    }

    /// <summary>Whether <paramref name="connectionString"/> sets any of <paramref name="keys"/> (spaces and case ignored).</summary>
    public static bool Sets(string connectionString, params string[] keys) =>
        new DbConnectionStringBuilder { ConnectionString = connectionString }.Keys.Cast<string>()
            .Select(k => k.Replace(" ", "", StringComparison.Ordinal))
            .Any(k => keys.Contains(k, StringComparer.OrdinalIgnoreCase));
}
