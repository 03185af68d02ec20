// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {MerkleProof} from "@openzeppelin/contracts/utils/cryptography/MerkleProof.sol";
import {ICommittedLedger} from "./ICommittedLedger.sol";

/// @title CommittedLedger
/// @notice Publishes the play-money ledger: a chained Merkle root of every (account, asset, balance), moved forward
/// one batch at a time by the operator. Journal batches carry their full PMJ5 payload so anyone can replay them.
/// @dev Roots are computed off chain (see docs/ledger.md); the contract checks ordering, never balances.
/// Asset ids: 0 = play money, (marketId << 8) | side = an outcome. The zero address is the supply account.
contract CommittedLedger is ICommittedLedger, Ownable {
    uint64 private _batchNonce;
    bytes32 private _ledgerRoot;
    bytes32 private _journalCommitment;
    address private _operator;
    address private _pendingOperator;
    address private immutable _treasury;

    /// @param initialOwner rotates the operator.
    /// @param initialOperator commits batches.
    /// @param treasuryAccount receives match fees (the `fee` of each Match).
    constructor(address initialOwner, address initialOperator, address treasuryAccount) Ownable(initialOwner) {
        if (initialOperator == address(0) || treasuryAccount == address(0)) revert LedgerZeroAddress();
        _operator = initialOperator;
        _treasury = treasuryAccount;
        emit OperatorTransferred(address(0), initialOperator);
    }

    modifier onlyOperator() {
        if (msg.sender != _operator) revert LedgerUnauthorizedOperator(msg.sender);
        _;
    }

    /// @notice Nonce of the last accepted batch (0 before the first).
    function batchNonce() external view returns (uint64) {
        return _batchNonce;
    }

    /// @notice The current ledger root (32 zero bytes for an empty ledger).
    function ledgerRoot() external view returns (bytes32) {
        return _ledgerRoot;
    }

    /// @notice The account allowed to commit batches.
    function operator() external view returns (address) {
        return _operator;
    }

    /// @notice The operator proposed by the owner and not yet accepted (zero when none).
    function pendingOperator() external view returns (address) {
        return _pendingOperator;
    }

    /// @notice The chained commitment over every journal payload so far.
    function journalCommitment() external view returns (bytes32) {
        return _journalCommitment;
    }

    /// @notice The account that receives match fees.
    function treasury() external view returns (address) {
        return _treasury;
    }

    /// @notice Commits a legacy batch of matches and credits moving the root from `prevRoot` to `newRoot`.
    /// @param emitEvents when true, every balance movement is also emitted as an ERC-1155 transfer event.
    function commitBatch(
        uint64 expectedNonce,
        bytes32 prevRoot,
        bytes32 newRoot,
        Match[] calldata matches,
        Credit[] calldata credits,
        bool emitEvents
    ) external onlyOperator {
        _advance(expectedNonce, prevRoot, newRoot);
        for (uint256 i = 0; i < matches.length; ++i) {
            Match calldata m = matches[i];
            if (m.side > 1 || m.kind > 3 || m.priceBps == 0 || m.priceBps >= 10_000 || m.shares == 0) revert LedgerInvalidMatch(i);
            if (emitEvents) _emitMatch(m);
        }
        for (uint256 i = 0; i < credits.length; ++i) {
            Credit calldata c = credits[i];
            if (c.delta == 0) revert LedgerInvalidCredit(i);
            if (!emitEvents) continue;
            if (c.delta > 0) _move(address(0), c.account, c.id, uint256(int256(c.delta)));
            // A negative int128 always fits in int256 and its negation in uint256 (|type(int128).min| < 2^255).
            else _move(c.account, address(0), c.id, uint256(-int256(c.delta)));
        }
        emit BatchCommitted(expectedNonce, newRoot, uint32(matches.length), uint32(credits.length), emitEvents);
    }

    /// @notice Commits a journal batch: its PMJ5 `payload` moves the root from `prevRoot` to `newRoot`, and the
    /// journal commitment becomes keccak256(abi.encodePacked(prevJournalCommitment, expectedNonce, newRoot, payloadHash)).
    function commitJournalBatch(
        uint64 expectedNonce,
        bytes32 prevRoot,
        bytes32 newRoot,
        bytes32 prevJournalCommitment,
        bytes32 payloadHash,
        bytes calldata payload
    ) external onlyOperator {
        _checkOrder(expectedNonce, prevRoot);
        if (prevJournalCommitment != _journalCommitment) {
            revert LedgerStaleJournalCommitment(prevJournalCommitment, _journalCommitment);
        }
        bytes32 computed = keccak256(payload);
        if (computed != payloadHash) revert LedgerPayloadHashMismatch(payloadHash, computed);
        _batchNonce = expectedNonce;
        _ledgerRoot = newRoot;
        bytes32 commitment = keccak256(abi.encodePacked(prevJournalCommitment, expectedNonce, newRoot, payloadHash));
        _journalCommitment = commitment;
        emit JournalBatchCommitted(expectedNonce, newRoot, commitment, payloadHash, payload);
    }

    /// @notice Checks `balance` of `assetId` for `account` against the current root.
    /// @dev leaf = keccak256(bytes.concat(keccak256(abi.encodePacked(account, assetId, balance)))), sorted-pair proof.
    function verifyBalance(address account, uint256 assetId, int256 balance, bytes32[] calldata proof)
        external
        view
        returns (bool)
    {
        bytes32 leaf = keccak256(bytes.concat(keccak256(abi.encodePacked(account, assetId, balance))));
        return MerkleProof.verifyCalldata(proof, _ledgerRoot, leaf);
    }

    /// @notice Step one of an operator rotation: the owner names the next operator.
    function transferOperator(address newOperator) external onlyOwner {
        if (newOperator == address(0)) revert LedgerZeroAddress();
        _pendingOperator = newOperator;
        emit OperatorTransferStarted(_operator, newOperator);
    }

    /// @notice Step two: the named operator accepts and takes over.
    function acceptOperator() external {
        if (msg.sender != _pendingOperator) revert LedgerUnauthorizedPendingOperator(msg.sender);
        address previous = _operator;
        _operator = msg.sender;
        delete _pendingOperator;
        emit OperatorTransferred(previous, msg.sender);
    }

    /// @dev A batch must follow the last accepted one: checked first, so a duplicate reports its stale nonce.
    function _checkOrder(uint64 expectedNonce, bytes32 prevRoot) private view {
        // Cannot overflow: 2^64 batches will never be committed.
        unchecked {
            if (expectedNonce != _batchNonce + 1) revert LedgerStaleNonce(expectedNonce, _batchNonce);
        }
        if (prevRoot != _ledgerRoot) revert LedgerStaleRoot(prevRoot, _ledgerRoot);
    }

    function _advance(uint64 expectedNonce, bytes32 prevRoot, bytes32 newRoot) private {
        _checkOrder(expectedNonce, prevRoot);
        _batchNonce = expectedNonce;
        _ledgerRoot = newRoot;
    }

    /// @dev The movements of one match, in the order of docs/ledger.md (the decoder replays them in this order).
    function _emitMatch(Match calldata m) private {
        uint256 base = uint256(m.marketId) << 8;
        uint256 s = base | m.side;
        uint256 o = base | (1 - m.side);
        uint256 shares = m.shares;
        // priceBps < 10_000 so notional <= shares.
        uint256 notional = shares * m.priceBps / 10_000;
        if (m.kind == 0) {
            _move(m.taker, m.maker, 0, notional);
            _move(m.maker, m.taker, s, shares);
        } else if (m.kind == 1) {
            _move(m.maker, m.taker, 0, notional);
            _move(m.taker, m.maker, s, shares);
        } else if (m.kind == 2) {
            _move(m.maker, address(0), 0, notional);
            _move(m.taker, address(0), 0, shares - notional);
            _move(address(0), m.maker, s, shares);
            _move(address(0), m.taker, o, shares);
        } else {
            _move(m.maker, address(0), s, shares);
            _move(m.taker, address(0), o, shares);
            _move(address(0), m.maker, 0, notional);
            _move(address(0), m.taker, 0, shares - notional);
        }
        if (m.fee > 0) _move(m.taker, _treasury, 0, m.fee);
    }

    function _move(address from, address to, uint256 id, uint256 value) private {
        if (value == 0) return;
        emit TransferSingle(msg.sender, from, to, id, value);
    }
}
