namespace Notifications.Shared.Hosting;

/// <summary>The RabbitMQ queue type of every queue of the topology (<c>RabbitMq:QueueType</c>).</summary>
public enum RabbitQueueType
{
    /// <summary>A classic queue: its messages live on the one node that hosts it.</summary>
    Classic,

    /// <summary>A quorum queue: replicated by Raft over the cluster, available while a majority of its nodes is.</summary>
    Quorum,
}
