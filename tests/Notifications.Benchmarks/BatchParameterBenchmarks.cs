using System.Reflection;
using BenchmarkDotNet.Attributes;
using Dapper;
using Notifications.Shared.Data;
using Notifications.Shared.Data.Postgres;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.Benchmarks;

/// <summary>
/// The delivery log's batched statement parameters: the store's own <c>Command</c> (distinct ids as one
/// bigint[]), called through reflection so the benchmark runs the real code; no database is contacted.
/// </summary>
[MemoryDiagnoser]
public class BatchParameterBenchmarks
{
    private NpgsqlDataSource? _dataSource;
    private Func<string, IReadOnlyCollection<long>, CancellationToken, CommandDefinition>? _command;
    private long[] _ids = [];

    [Params(32, 500)]
    public int Ids { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _dataSource = NpgsqlDataSource.Create("Host=127.0.0.1;Database=none");
        IDeliveryLogStore store = new PostgresDeliveryLogStore(_dataSource, new DatabaseOptions { ConnectionString = "Host=127.0.0.1" });
        var method = typeof(PostgresDeliveryLogStore).GetMethod("Command", BindingFlags.NonPublic | BindingFlags.Instance)
            ?? throw new InvalidOperationException("PostgresDeliveryLogStore.Command not found");
        _command = method.CreateDelegate<Func<string, IReadOnlyCollection<long>, CancellationToken, CommandDefinition>>(store);
        _ids = Enumerable.Range(1_000_000, Ids).Select(i => (long)i).ToArray();
    }

    [GlobalCleanup]
    public void Cleanup() => _dataSource?.Dispose();

    [Benchmark]
    public CommandDefinition DeliveryLogCommand() => _command!("SELECT 1", _ids, CancellationToken.None);
}
