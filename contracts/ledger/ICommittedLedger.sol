// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title ICommittedLedger
/// @notice Types, events and errors of the committed ledger: the chain anchor of the play-money venue. Balances live
/// off chain; each batch moves the published Merkle root (`ledgerRoot`) forward by one nonce, and journal batches also
/// chain a commitment over their payloads so that anyone can replay the books. See docs/ledger.md.
interface ICommittedLedger {
    /// @notice An order-book fill. `kind`: 0 taker buys from maker, 1 taker sells to maker, 2 mint, 3 merge.
    struct Match {
        address maker;
        address taker;
        uint64 marketId;
        uint8 side;
        uint8 kind;
        uint128 shares;
        uint32 priceBps;
        uint128 fee;
    }

    /// @notice A supply movement: `delta` > 0 moves supply -> account, < 0 account -> supply. `reason` per docs/ledger.md.
    struct Credit {
        address account;
        uint256 id;
        int128 delta;
        uint8 reason;
    }

    /// @notice A legacy batch was committed.
    event BatchCommitted(uint64 indexed nonce, bytes32 indexed newRoot, uint32 matchCount, uint32 creditCount, bool eventsEmitted);

    /// @notice A journal batch was committed; `payload` is the PMJ5 journal of the batch.
    event JournalBatchCommitted(
        uint64 indexed nonce, bytes32 indexed newRoot, bytes32 indexed journalCommitment, bytes32 payloadHash, bytes payload
    );

    /// @notice ERC-1155 movement of a legacy batch (zero address = supply account).
    event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value);

    /// @notice ERC-1155 movements sharing `from` and `to`. Declared because the spec lists it (replayers handle it);
    /// this implementation never emits it: every movement of a legacy batch is a TransferSingle.
    event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values);

    /// @notice The owner proposed `newOperator`; it takes over when it accepts.
    event OperatorTransferStarted(address indexed currentOperator, address indexed newOperator);

    /// @notice The operator changed.
    event OperatorTransferred(address indexed previousOperator, address indexed newOperator);

    /// @notice `caller` is not the operator.
    error LedgerUnauthorizedOperator(address caller);
    /// @notice `caller` is not the proposed operator.
    error LedgerUnauthorizedPendingOperator(address caller);
    /// @notice The batch does not follow the last accepted one.
    error LedgerStaleNonce(uint64 expectedNonce, uint64 batchNonce);
    /// @notice The batch was built on another root than the current one.
    error LedgerStaleRoot(bytes32 prevRoot, bytes32 ledgerRoot);
    /// @notice The journal batch was built on another commitment than the current one.
    error LedgerStaleJournalCommitment(bytes32 prevJournalCommitment, bytes32 journalCommitment);
    /// @notice keccak256(payload) is not the stated hash.
    error LedgerPayloadHashMismatch(bytes32 payloadHash, bytes32 computedHash);
    /// @notice Match `index` has a side, kind, price or share count out of range.
    error LedgerInvalidMatch(uint256 index);
    /// @notice Credit `index` moves nothing.
    error LedgerInvalidCredit(uint256 index);
    /// @notice An address argument was zero.
    error LedgerZeroAddress();
}
