using System.Collections.Concurrent;
using System.Security.Cryptography;
using Npgsql;

namespace Notifications.IntegrationTests.Infrastructure;

/// <summary>
/// The connection string of a login in each database role (docs/security.md): NOTIFICATIONS_TEST_POSTGRES_APP,
/// _PRODUCER, _CONSUMER, _ADMIN (scripts/setup writes them), or else a login of this test run, made through the
/// test database's own connection (a container's superuser, or a migrator with CREATEROLE) and dropped at exit.
/// Neither: the test fails with that advice, never silently as the owner.
/// </summary>
internal static class TestRoles
{
    private static readonly ConcurrentDictionary<DatabaseRole, Lazy<string>> Logins = new();

    public static string ConnectionString(DatabaseRole role) =>
        Logins.GetOrAdd(role, r => new Lazy<string>(() => Resolve(r))).Value;

    public static string RoleName(DatabaseRole role) => $"notifications_{role.ToString().ToLowerInvariant()}";

    private static string Resolve(DatabaseRole role)
    {
        string variable = $"{TestServices.PostgresVariable}_{role.ToString().ToUpperInvariant()}";
        if (Environment.GetEnvironmentVariable(variable) is { Length: > 0 } value)
        {
            // The login from the variable, on the test database's server and database (a database of one's own
            // named by NOTIFICATIONS_TEST_POSTGRES alone still gets the role logins, which are cluster-wide).
            ServiceLog.Note("PostgreSQL", $"{variable} from the environment");
            var login = new NpgsqlConnectionStringBuilder(value);
            return new NpgsqlConnectionStringBuilder(TestServices.PostgresConnectionString) { Username = login.Username, Password = login.Password }.ConnectionString;
        }

        return CreateLogin(role, variable);
    }

    private static string CreateLogin(DatabaseRole role, string variable)
    {
        var owner = new NpgsqlConnectionStringBuilder(TestServices.PostgresConnectionString);
        string login = $"nt_{role.ToString().ToLowerInvariant()}_{Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(4))}";
        string password = Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(24));
        try
        {
            using var connection = new NpgsqlConnection(owner.ConnectionString);
            connection.Open();
            using var command = new NpgsqlCommand($"CREATE ROLE {login} LOGIN PASSWORD '{password}' IN ROLE {RoleName(role)}", connection);
            command.ExecuteNonQuery();
        }
        catch (PostgresException e)
        {
            throw new InvalidOperationException(
                $"{variable} is not set and '{owner.Username}' may not create a login in {RoleName(role)} ({e.MessageText}). "
                + "Run scripts/setup (it makes one login per role and writes NOTIFICATIONS_TEST_POSTGRES_<ROLE> to .run/services.env).", e);
        }

        AppDomain.CurrentDomain.ProcessExit += (_, _) => Drop(owner.ConnectionString, login);
        return new NpgsqlConnectionStringBuilder(owner.ConnectionString) { Username = login, Password = password }.ConnectionString;
    }

    private static void Drop(string ownerConnectionString, string login)
    {
        try
        {
            NpgsqlConnection.ClearAllPools();
            using var connection = new NpgsqlConnection(ownerConnectionString);
            connection.Open();
            using var command = new NpgsqlCommand($"DROP ROLE IF EXISTS {login}", connection);
            command.ExecuteNonQuery();
        }
        catch (NpgsqlException)
        {
            // Best effort at exit: a login left behind has no privileges of its own beyond its role's.
        }
    }
}
